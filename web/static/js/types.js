// The wire protocol as JSDoc types (docs/protocol-wire.md, crate `cannonade-wire`). The
// client checks these with `tsc --checkJs`; nothing here runs.

/** @typedef {'xiangqi'|'banqi'|'chessbattle'|'commander'} GameKind */
/** @typedef {'first'|'second'} Seat */
/** @typedef {'first'|'second'|'both'|'spectator'} Role */
/** @typedef {'draw'|'takeback'|'rematch'} OfferKind */
/** @typedef {{initial_ms: number, increment_ms: number, days_per_move?: number}} TimeControl */
/** @typedef {{remaining_ms: [number, number], running: Seat|null}} ClockState */
/** @typedef {{id: string, name: string, account: boolean}} UserInfo */
/** @typedef {{name: string, rating: number|null, provisional?: boolean, ai: boolean, online: boolean}} PlayerInfo */
/** @typedef {{before: number, after: number, diff: number, provisional: boolean}} RatingChange */
/** @typedef {{speed: string, seats: [RatingChange, RatingChange]}} RatingChanges */
/**
 * A legal move: the text to send back, the squares it names (origin first) and the move as
 * people read it in the game's notation; `units`, where a square holds several pieces
 * (Commander stacks), the pieces each step moves (`units[i]` goes to `squares[i + 1]`).
 * @typedef {{mv: string, squares: string[], display: string, units?: string[]}} LegalMove
 */
/** @typedef {{mv: string, display: string, seat: Seat}} MoveInfo */
/** @typedef {{winner: Seat|null, reason: string}} GameResult */
/** @typedef {{agreed: number, of: number}} CrowdSide */
/** @typedef {{first: CrowdSide, second: CrowdSide}} CrowdRecord */
/** @typedef {{room: 'players'|'spectators', from: string, text: string}} ChatLine */
/** @typedef {{mv: string, n: number}} TallyEntry */
/**
 * A piece of the legend: its letter, English name, colour, and the symbol its picture and
 * translated name are keyed by (`cn.horse`, `cmd.navy`, `hidden`).
 * @typedef {{letter: string, name: string, colour: string, symbol: string}} PieceInfo
 */
/** @typedef {{kind: string, squares: string[], diagonals: boolean}} Region */
/**
 * A river drawn between two ranks over some files, with fords.
 * @typedef {{after_rank: string, files: string[], fords: string[]}} River
 */
/**
 * @typedef {object} Geometry
 * @property {GameKind} game
 * @property {'points'|'cells'} layout
 * @property {number} files
 * @property {number} ranks
 * @property {string[]} file_labels
 * @property {string[]} rank_labels
 * @property {string[]} missing
 * @property {Region[]} regions palaces; terrain: `water`, `coast`, `land`
 * @property {River|null} river
 * @property {PieceInfo[]} pieces
 */
/**
 * @typedef {object} PublicPosition
 * @property {string} fen
 * @property {Record<string, string>} pieces square -> piece text (`X` face-down; Commander
 *   stacks as `(NFT)` with `+` before a heroic piece)
 * @property {Seat|null} to_move
 * @property {boolean} in_check
 * @property {string|null} check the square of the royal piece in check
 * @property {[string, string]|null} colours each seat's colour, first seat first (Banqi: null
 *   until the first flip)
 * @property {Record<Seat, string[]>} [air_defence] squares under each seat's air defence
 *   (Commander)
 */
/**
 * @typedef {object} Snapshot
 * @property {string} game
 * @property {number} v
 * @property {GameKind} kind
 * @property {string} options
 * @property {boolean} rated
 * @property {Geometry} geometry
 * @property {PublicPosition} start
 * @property {PublicPosition} position
 * @property {MoveInfo[]} moves
 * @property {[PlayerInfo, PlayerInfo]} players
 * @property {Role} you
 * @property {TimeControl} time_control
 * @property {ClockState} clock
 * @property {LegalMove[]|null} legal
 * @property {[OfferKind, Seat][]} offers
 * @property {GameResult|null} result
 * @property {string|null} commitment
 * @property {string|null} seed
 * @property {number} spectators
 * @property {ChatLine[]} chat
 * @property {CrowdRecord|null} crowd
 * @property {CrowdPly[]} [crowd_judged] spectators: plies already played whose crowd
 *   favourite the engine judged (never the open ply)
 * @property {string|null} rematch
 */
/**
 * `GET /api/game/{id}/positions`: the start and the position after each move.
 * @typedef {{game: string, v: number, positions: PublicPosition[]}} Positions
 */
/**
 * A game of the session's, from `GET /api/my-games`.
 * @typedef {{id: string, game: GameKind, players: [string, string], you: Role, result: GameResult|null, created_ms: number}} PastGameInfo
 */
/**
 * @typedef {{e: 'moved', ply: number, mv: string, display: string, seat: Seat, position: PublicPosition, clock: ClockState}
 *   | {e: 'offered', kind: OfferKind, seat: Seat}
 *   | {e: 'declined', kind: OfferKind, seat: Seat}
 *   | {e: 'taken_back', moves: number, position: PublicPosition, clock: ClockState}
 *   | {e: 'ended', result: GameResult, clock: ClockState, seed?: string, crowd: CrowdRecord}
 *   | {e: 'rematch', game: string}} GameEvent
 */
/** @typedef {{min: number, max: number}} RatingRange */
/**
 * A seek: `rating` the seeker's in its game and speed (absent: anonymous or untimed),
 * `range` the ratings that may take it (absent: anyone).
 * @typedef {{id: string, by: string, game: GameKind, options: string, clock: TimeControl, rated: boolean, rating?: number, provisional?: boolean, range?: RatingRange}} SeekInfo
 */
/** @typedef {{id: string, game: GameKind, players: [string, string], moves: number, spectators: number}} GameSummary */
/**
 * @typedef {{t: 'welcome', protocol: number, user: UserInfo, games: GameKind[]}
 *   | {t: 'pong', n: number}
 *   | {t: 'error', code: string, message: string, game?: string}
 *   | {t: 'lobby', seeks: SeekInfo[], games: GameSummary[], live: number}
 *   | {t: 'seek_added', seek: SeekInfo}
 *   | {t: 'seek_removed', id: string}
 *   | {t: 'invite_created', code: string, path: string}
 *   | {t: 'game_started', game: string, role: Role}
 *   | ({t: 'snapshot'} & Snapshot)
 *   | {t: 'event', game: string, v: number, event: GameEvent, legal?: LegalMove[], reveal?: Reveal, score?: Score, ratings?: RatingChanges}
 *   | {t: 'clock', game: string, clock: ClockState}
 *   | {t: 'spectators', game: string, count: number}
 *   | {t: 'presence', game: string, seat: Seat, online: boolean, claim_in_ms?: number}
 *   | ({t: 'chat', game: string} & ChatLine)
 *   | {t: 'proposal_ok', game: string, ply: number, mv: string}
 *   | {t: 'tally', game: string, ply: number, counts: TallyEntry[]}
 *   | {t: 'score', game: string, hits: number, total: number}
 *   | {t: 'held', game: string, held: boolean, message: string}
 *   | {t: 'crowd_judged', game: string, judged: CrowdPly}
 *   | AnalysisMsg} ServerMsg
 */
/**
 * The analysis board's position (`POST /api/position` and `analyse`): a start (absent: the
 * game's own) and moves from it.
 * @typedef {{game: GameKind, options: string, fen?: string, moves: string[]}} PositionRequest
 */
/** @typedef {{mv: string, display: string}} LineMove */
/**
 * `POST /api/position`'s answer: the position reached, the moves as read, what may follow
 * (a Banqi flip once per piece it may reveal) and the result when the rules ended it.
 * @typedef {{game: GameKind, position: PublicPosition, moves: LineMove[], legal: LegalMove[], result?: GameResult}} AnalysedPosition
 */
/**
 * One of the engine's best lines: its value for the side to move, its moves, the first
 * move's squares.
 * @typedef {{value: Eval, moves: LineMove[], squares: string[]}} EngineLine
 */
/**
 * Where the analysis `id` of this socket stands, with the lines at the depth reached.
 * @typedef {{t: 'analysis', id: number, status: 'queued'|'running'|'done', place?: number, depth: number, nodes: number, lines: EngineLine[]}} AnalysisMsg
 */
/** @typedef {{ply: number, played: string, counts: TallyEntry[], matched: number, crowd: CrowdRecord}} Reveal */
/** @typedef {{hits: number, total: number}} Score */
/** @typedef {Record<string, unknown> & {t: string}} ClientMsg */

/**
 * An engine value for the side to move: centipawns, or a mate in so many of its moves
 * (negative: mated). docs/analysis.md.
 * @typedef {{cp: number}|{mate: number}} Eval
 */
/** @typedef {'inaccuracy'|'mistake'|'blunder'} Judgement */
/**
 * One move of a game's review (crate `cannonade-engine`, `review::PlyReview`): `seat` 0 is
 * the first seat; win chances are the mover's, 0 to 1; `best` and `line` in engine text,
 * `best_display` and `line_display` as the move list writes moves.
 * @typedef {object} PlyReview
 * @property {number} ply
 * @property {number} seat
 * @property {string} played
 * @property {string} display
 * @property {Eval} before
 * @property {string|null} best
 * @property {string|null} best_display
 * @property {string[]} line
 * @property {string[]} [line_display]
 * @property {Eval} played_value
 * @property {number} loss
 * @property {number} win_before
 * @property {number} win_after
 * @property {number} accuracy
 * @property {Judgement|null} judgement
 */
/**
 * A ply where spectators proposed, against the engine (crate `cannonade-server`,
 * `reviews::crowd::CrowdPly`): values are the mover's; `favourite` in engine text,
 * `favourite_display` as the move list writes it.
 * @typedef {object} CrowdPly
 * @property {number} ply
 * @property {number} seat
 * @property {string} favourite
 * @property {string} favourite_display
 * @property {number} votes
 * @property {number} proposers
 * @property {Eval} favourite_value
 * @property {Eval} played_value
 * @property {Eval} best_value
 * @property {boolean} as_good
 */
/**
 * The crowd against the engine over a game: `found` of the `plies` had a favourite as good
 * as the move played; `spectators` by user id.
 * @typedef {{plies: CrowdPly[], found: number, spectators: Record<string, {good: number, of: number}>}} CrowdReview
 */
/**
 * A game's review: one entry per move, the accuracy per seat, whether values are
 * expectations over face-down pieces (Banqi), and the crowd's showing when spectators
 * proposed.
 * @typedef {{kind: GameKind, depth: number|null, plies: PlyReview[], accuracy: [number|null, number|null], expectation: boolean, crowd?: CrowdReview}} Review
 */
/**
 * `GET /api/game/{id}/review`'s answer.
 * @typedef {{state: 'done', review: Review}|{state: 'queued', position: number}|{state: 'running'}|{state: 'none'}} ReviewStatus
 */

export {};
