// Short tones made with WebAudio: no audio files to ship. Muting is remembered.

const MUTE_KEY = 'cannonade_muted';

/** @type {AudioContext|null} */
let ctx = null;

export function muted() {
  return localStorage.getItem(MUTE_KEY) === '1';
}

/** @param {boolean} on */
export function setMuted(on) {
  localStorage.setItem(MUTE_KEY, on ? '1' : '0');
}

/** @type {Record<string, [number, number, number][]>} notes as [frequency Hz, start s, length s] */
const SOUNDS = {
  move: [[520, 0, 0.07]],
  capture: [[330, 0, 0.06], [220, 0.05, 0.09]],
  check: [[880, 0, 0.08], [660, 0.09, 0.1]],
  end: [[523, 0, 0.15], [659, 0.15, 0.15], [784, 0.3, 0.3]],
  notify: [[740, 0, 0.06], [740, 0.1, 0.06]],
  flip: [[392, 0, 0.05], [587, 0.04, 0.08]],
  low: [[988, 0, 0.05], [988, 0.12, 0.05], [988, 0.24, 0.05]],
};

/** How many sounds were asked for, by name (the tests read it: a headless browser is silent). */
/** @type {Record<string, number>} */
export const played = {};

/** @param {keyof typeof SOUNDS} name */
export function play(name) {
  played[name] = (played[name] ?? 0) + 1;
  if (muted()) return;
  try {
    ctx ??= new AudioContext();
    const now = ctx.currentTime;
    for (const [freq, start, len] of SOUNDS[name]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'triangle';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.2, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + len);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + len + 0.02);
    }
  } catch {
    // No audio device (a headless browser): silence is fine.
  }
}
