// The page's debugging handle (window.cannonade), typed for `tsc --checkJs`.
interface Window {
  cannonade: { net: import('../static/js/net.js').Net; game: import('../static/js/game.js').GameView | null };
}
