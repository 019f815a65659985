//! Every tunable of the engine in one place: search margins, reductions, time use, levels and
//! the evaluation weights of each game. Values are centipawns (a Xiangqi soldier before the
//! river, a Chess-Battle soldier) unless named otherwise.

/// Aspiration window half-width around the previous iteration's score.
pub const ASPIRATION_WINDOW: i32 = 30;
/// Depth from which iterations start with an aspiration window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Reverse futility (static null move) margin per ply of remaining depth (one ply less
/// when the mover's static value is improving).
pub const REVERSE_FUTILITY_MARGIN: i32 = 110;
/// Deepest remaining depth where reverse futility pruning applies.
pub const REVERSE_FUTILITY_DEPTH: i32 = 6;
/// Futility pruning: when a quiet move that gives no check would be searched, after its
/// late-move reduction, to this depth or less, it is skipped if the static value plus
/// `FUTILITY_BASE + FUTILITY_MARGIN * depth` cannot reach alpha.
pub const FUTILITY_DEPTH: i32 = 5;
/// See [`FUTILITY_DEPTH`].
pub const FUTILITY_BASE: i32 = 80;
/// See [`FUTILITY_DEPTH`].
pub const FUTILITY_MARGIN: i32 = 110;
/// Late-move pruning: at this remaining depth or less, quiet moves after the first
/// `(LMP_BASE + depth²) / 2` in move order (twice as many when the mover's static value is
/// improving) that give no check are not searched.
pub const LMP_DEPTH: i32 = 7;
/// See [`LMP_DEPTH`].
pub const LMP_BASE: usize = 5;
/// Contempt: a draw the search sees counts this much against the side it plays for (each
/// game picks its own through [`crate::Evaluate::CONTEMPT`]; this is the default).
pub const DRAW_CONTEMPT: i32 = 40;
/// Shallowest remaining depth where null-move pruning is tried.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// Base null-move reduction; one more ply per `NULL_MOVE_DEPTH_DIVISOR` of depth and per
/// `NULL_MOVE_EVAL_DIVISOR` of static value above beta (at most `NULL_MOVE_EVAL_MAX`).
pub const NULL_MOVE_BASE_REDUCTION: i32 = 3;
/// See [`NULL_MOVE_BASE_REDUCTION`].
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;
/// See [`NULL_MOVE_BASE_REDUCTION`].
pub const NULL_MOVE_EVAL_DIVISOR: i32 = 200;
/// See [`NULL_MOVE_BASE_REDUCTION`].
pub const NULL_MOVE_EVAL_MAX: i32 = 3;
/// Internal iterative reduction: a node with no hash move at this remaining depth or more
/// is searched one ply shallower (its move order is a guess; the next iteration finds it
/// with a hash move).
pub const IIR_MIN_DEPTH: i32 = 4;
/// Shallowest remaining depth where late moves are reduced.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Moves searched at full depth before reductions start (more at PV nodes).
pub const LMR_FULL_MOVES: usize = 3;
/// Reduction = ln(depth) * ln(move number) / LMR_DIVISOR (in hundredths), one ply more at
/// non-PV nodes whose static value is not improving, and less or more by the move's history.
pub const LMR_DIVISOR_CENTI: f64 = 225.0;
/// A quiet move's reduction shrinks by one ply per this much history (and grows as much for
/// a negative history).
pub const LMR_HISTORY_DIVISOR: i32 = 8192;
/// History pruning: at non-PV nodes, a quiet move that would be searched to this depth or
/// less after its reduction is skipped when its history (with its continuation history)
/// is below `-HISTORY_PRUNE_MARGIN` per ply of the node's depth.
pub const HISTORY_PRUNE_DEPTH: i32 = 3;
/// See [`HISTORY_PRUNE_DEPTH`].
pub const HISTORY_PRUNE_MARGIN: i32 = 3_000;
/// Singular extensions: from this remaining depth, a hash move stored as a lower bound or
/// exact value at most `SINGULAR_TT_DEPTH_SLACK` plies shallower is tested for being the
/// only good move: the node is searched at half depth without it against the hash value
/// less `SINGULAR_MARGIN` per ply; if nothing reaches that, the hash move is searched a ply
/// deeper.
pub const SINGULAR_MIN_DEPTH: i32 = 6;
/// See [`SINGULAR_MIN_DEPTH`].
pub const SINGULAR_TT_DEPTH_SLACK: i32 = 3;
/// See [`SINGULAR_MIN_DEPTH`].
pub const SINGULAR_MARGIN: i32 = 2;
/// Quiescence plies in which check evasions are searched in full (deeper, stand pat).
pub const QS_EVASION_PLIES: usize = 4;
/// Deepest ply of the whole search (extensions included).
pub const MAX_PLY: usize = 96;
/// Check extensions stop once the ply exceeds this multiple of the nominal depth.
pub const EXTENSION_PLY_FACTOR: i32 = 2;
/// Chance nodes (Banqi flips) are expanded outcome by outcome only with at least this much
/// remaining depth; shallower, a flip is worth the weighted static value of its outcomes.
pub const CHANCE_EXPAND_DEPTH: i32 = 2;
/// Chance nodes are expanded only within this many plies of the root.
pub const CHANCE_EXPAND_PLY: usize = 3;
/// At each node only the first moves leading to chance nodes in move order (the most
/// promising flips) are expanded; the others get the weighted static value.
pub const CHANCE_EXPAND_MOVES: usize = 3;
/// Star2 probes the outcomes of an expanded chance node (one move each) before searching
/// them from this much remaining depth. From 2 (every expanded chance node) it saved the most
/// nodes on the Banqi bench (depth 9: 851 k, 979 k from 3, 1,063 k from 4, 1,577 k with
/// Star1 alone), but from 4 it played better against Star1 alone (200 games at 50 ms a move:
/// 52.0 % against 46.5 %).
pub const STAR2_MIN_DEPTH: i32 = 4;
/// History bonus cap (history scores are kept within ±this).
pub const HISTORY_MAX: i32 = 1 << 14;

/// Time: fraction (in percent) of the per-move slice used as the soft limit (no new
/// iteration starts after it).
pub const SOFT_TIME_PERCENT: u64 = 55;
/// Time: the hard limit is at most this many times the per-move slice.
pub const HARD_TIME_FACTOR: u64 = 3;
/// Time: moves assumed left in the game when the GUI does not say.
pub const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Time: never plan to use more than this percentage of the remaining clock on one move.
pub const MAX_CLOCK_PERCENT: u64 = 20;

/// Xiangqi piece values by `Kind` index (general, advisor, elephant, horse, chariot, cannon,
/// soldier).
pub const XIANGQI_VALUES: [i32; 7] = [0, 130, 130, 420, 950, 460, 100];
/// Xiangqi: a soldier across the river is worth this much more (plus its square bonus).
pub const XIANGQI_CROSSED_SOLDIER: i32 = 80;
/// Xiangqi: per missing advisor or elephant, times the enemy attackers across the river.
pub const XIANGQI_MISSING_DEFENDER: i32 = 12;
/// Xiangqi: a cannon on the enemy general's file, by the number of pieces between them (one
/// is a check, which the search sees; two is one move from check, the central cannon's
/// pressure).
pub const XIANGQI_CANNON_SCREENS: [i32; 4] = [12, 0, 40, 15];
/// Xiangqi: a chariot's worth per point it reaches (empty or enemy), less
/// `XIANGQI_CHARIOT_MOBILITY_BASE` points, so a typical chariot scores near zero.
pub const XIANGQI_CHARIOT_MOBILITY: i32 = 3;
/// See [`XIANGQI_CHARIOT_MOBILITY`].
pub const XIANGQI_CHARIOT_MOBILITY_BASE: i32 = 8;
/// Xiangqi: a horse's worth per point it can reach (legs free, not its own piece), less
/// `XIANGQI_HORSE_MOBILITY_BASE`; a horse with its legs blocked is nearly useless.
pub const XIANGQI_HORSE_MOBILITY: i32 = 8;
/// See [`XIANGQI_HORSE_MOBILITY`].
pub const XIANGQI_HORSE_MOBILITY_BASE: i32 = 3;
/// Xiangqi: attack units per palace point of the enemy general that a chariot, horse, cannon
/// (through a screen) or soldier reaches. With two attackers or more, the attacked side loses
/// `units² / XIANGQI_KING_ATTACK_DIVISOR` (at most `XIANGQI_KING_ATTACK_MAX`): attacks on
/// the palace are worth little alone and much together, and most lost games end in mate.
pub const XIANGQI_KING_ATTACK_UNITS: [i32; 7] = [0, 0, 0, 3, 4, 3, 2];
/// See [`XIANGQI_KING_ATTACK_UNITS`].
pub const XIANGQI_KING_ATTACK_DIVISOR: i32 = 3;
/// See [`XIANGQI_KING_ATTACK_UNITS`].
pub const XIANGQI_KING_ATTACK_MAX: i32 = 400;
/// Xiangqi: general off its starting file (exposed), per step.
pub const XIANGQI_GENERAL_OFF_CENTRE: i32 = 15;
/// Xiangqi: general raised off its back rank, per rank: a general that walks up its palace
/// leaves its back rank to a chariot and itself to horse and cannon mates.
pub const XIANGQI_GENERAL_RAISED: i32 = 30;
/// Xiangqi: the side to move's tempo.
pub const XIANGQI_TEMPO: i32 = 15;

/// Banqi's contempt: a draw counts this much against the engine. A Banqi game stays open
/// while pieces lie face down, and behind by a piece the engine used to settle for a
/// repetition against a player it would most likely have outplayed (docs/engine.md).
pub const BANQI_CONTEMPT: i32 = 250;
// The Banqi weights from here to the safe percentage were fitted together to the results of
// about 6,400 self-play games (Texel's method: `cannonade-train --game banqi`, docs/engine.md
// "Banqi: the evaluation fitted to games' results"). A base value is only part of a kind's
// worth, which adds its prey and takes off its predators: against a full enemy army a soldier
// is worth 168, a horse 162, a cannon 292 and a general 511.

/// Banqi base values, highest rank first (general, advisor, elephant, chariot, horse,
/// cannon, soldier).
pub const BANQI_VALUES: [i32; 7] = [400, 325, 126, 110, 89, 128, 150];
/// Banqi: value added per enemy piece (up or down) that a piece can capture.
pub const BANQI_PREY: i32 = 13;
/// Banqi: value removed per enemy piece (up or down) that can capture this piece.
pub const BANQI_PREDATOR: i32 = 4;
/// Banqi: percentage of its value a face-down piece counts for its colour.
pub const BANQI_DOWN_PERCENT: i32 = 106;
/// Banqi: percentage of the victim's value for a capture the side to move threatens now.
pub const BANQI_THREAT_PERCENT: i32 = 22;
/// Banqi: percentage of the value of an own piece that the opponent attacks and that is not
/// defended (an adjacent friend that could take back).
pub const BANQI_HANGING_PERCENT: i32 = 29;
/// Banqi: centipawns a general loses per unit of danger (an enemy soldier next to it with
/// no way out is one unit; see `eval::banqi::general_danger`).
pub const BANQI_GENERAL_DANGER: i32 = 320;
/// Banqi: centipawns per step a face-up piece can make onto an empty point, the side to
/// move's count less the other's: a piece walled in by its own or by face-down pieces can
/// neither chase nor run (docs/engine.md has the measurement).
pub const BANQI_MOBILITY: i32 = 18;
/// Banqi: percentage added to a kind's value while no enemy piece (up or down) can take it.
pub const BANQI_SAFE_PERCENT: i32 = 42;

/// Chess-Battle piece values by `Kind` index (headquarter, bomber, tank, gun, machine gun,
/// cavalry, soldier).
pub const BATTLE_VALUES: [i32; 7] = [0, 950, 520, 480, 360, 330, 100];
/// Chess-Battle: soldier bonus by ranks advanced towards the last rank (0 = own back rank).
pub const BATTLE_SOLDIER_ADVANCE: [i32; 12] = [0, 0, 0, 5, 10, 18, 28, 40, 60, 90, 150, 0];
/// Chess-Battle: percentage of the victim's value for each enemy piece a gun or machine gun
/// has in its sights (a shooting line).
pub const BATTLE_SIGHT_PERCENT: i32 = 8;
/// Chess-Battle: a shooter's value per open square on its shooting lines.
pub const BATTLE_LINE_SQUARE: i32 = 2;
/// Chess-Battle: centralisation bonus per step closer to the centre, for leapers and
/// shooters.
pub const BATTLE_CENTRE: i32 = 4;
/// Chess-Battle: the side to move's tempo.
pub const BATTLE_TEMPO: i32 = 15;

/// Commander Chess piece values by `Kind` index (commander, infantry, tank, militia,
/// engineer, artillery, anti-air, missile, air force, navy, headquarters), in centipawns.
pub const COMMANDER_VALUES: [i32; 11] = [0, 100, 200, 100, 100, 300, 200, 400, 600, 800, 0];
/// Commander Chess under a scored format: centipawns per point of lead (a point is worth
/// 10 cp of material: a Navy is 80 points and 800 cp), on top of the material, since the
/// points scored decide the game.
pub const SCORED_POINT_CP: i32 = 5;
/// Commander Chess: the side to move's tempo.
pub const COMMANDER_TEMPO: i32 = 10;
/// Commander Chess: a heroic piece's worth beyond its kind (ranges + 1, all directions, and
/// 10 more points to the side that takes it), per heroic piece other than the Commander.
pub const COMMANDER_HERO: i32 = 60;
/// Commander Chess: bonus of an Infantry, Militia or Tank by ranks advanced (0 = own back
/// rank); foot soldiers are what takes the enemy Commander's ground.
pub const COMMANDER_FOOT_ADVANCE: [i32; 12] = [0, 0, 0, 3, 6, 10, 16, 22, 28, 32, 32, 30];
/// Commander Chess: bonus of an Artillery, Missile or Anti-Air by ranks advanced: they
/// support from behind, so only the first steps count.
pub const COMMANDER_SUPPORT_ADVANCE: [i32; 12] = [0, 0, 4, 8, 10, 10, 8, 6, 4, 2, 0, 0];
/// Commander Chess: penalty per rank the Commander stands beyond its third rank.
pub const COMMANDER_EXPOSED_RANK: i32 = 12;
/// Commander Chess: penalty per enemy unit within two points (king distance) of one's
/// Commander.
pub const COMMANDER_NEAR_ENEMY: i32 = 18;
/// Commander Chess: bonus when one's Commander stands inside one's own air-defence zone
/// (an enemy Air Force must then fly through it to strike).
pub const COMMANDER_AIR_COVER: i32 = 20;

/// Levels 1–10 for people: maximum depth, node budget (in Xiangqi nodes: see
/// [`XIANGQI_NODE_RATE`]), evaluation noise (± centipawns) and the percentage of the given
/// thinking time used. Level 10 is full strength. Each level searches one ply deeper than
/// the one below: the ladder measured with levels that shared a depth showed steps of only
/// +29 and +44 Elo (noise and node budgets alone barely separate them), while a ply more gave
/// +90 to +550. Level 9's caps do not bind at fast time controls (it drew level 10 at 250 ms
/// a move), so it thinks half as long; so does every level below it, since a level that was
/// given more time than the one above it beat it whenever time bound before the budgets
/// (Commander Chess's level 8 against 9 went 10-5-1 at 50 ms a move).
pub const LEVELS: [(u32, u64, i32, u32); 10] = [
    (1, 2_000, 200, 50),
    (2, 6_000, 120, 50),
    (3, 15_000, 80, 50),
    (4, 40_000, 50, 50),
    (5, 100_000, 35, 50),
    (6, 250_000, 20, 50),
    (7, 600_000, 12, 50),
    (8, 1_500_000, 6, 50),
    (9, 3_000_000, 3, 50),
    (u32::MAX, u64::MAX, 0, 100),
];

/// How many nodes a second each game's search visits, in percent of Xiangqi's (from the
/// start position, `go movetime 2000`, 2026-11-22: Xiangqi 0.95 M, Banqi 3.1 M with the
/// quiescence at unexpanded flips, Chess-Battle 0.42 M, Commander Chess 0.08 M). A level's
/// node budget in [`LEVELS`] is scaled by it, so that a level thinks about as long in every
/// game and the budgets, not the clock, tell the levels apart in the slow games too.
pub const XIANGQI_NODE_RATE: u32 = 100;
/// Banqi's node rate (see [`XIANGQI_NODE_RATE`]).
pub const BANQI_NODE_RATE: u32 = 300;
/// Chess-Battle's node rate (see [`XIANGQI_NODE_RATE`]).
pub const BATTLE_NODE_RATE: u32 = 45;
/// Commander Chess's node rate (see [`XIANGQI_NODE_RATE`]).
pub const COMMANDER_NODE_RATE: u32 = 10;

/// The `UCI_Elo` of each level, for `UCI_LimitStrength`. The shape is the measured ladder
/// (Xiangqi, docs/engine.md: steps of +470, +545, +280, +211, +163, +89, +89, +221, +211
/// from level 1 up, 2,279 in all); self-play exaggerates such gaps, so the whole is scaled
/// onto 800–2400 (× 0.70). Level n's figure is 800 + 0.70 × (the sum of the steps below it).
pub const LEVEL_ELO: [u32; 10] = [800, 1130, 1513, 1709, 1857, 1972, 2034, 2097, 2252, 2400];
