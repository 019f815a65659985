// The page's debugging handle (window.cannonade), typed for `tsc --checkJs`.
interface Window {
  cannonade: { net: import('../static/js/net.js').Net; sounds?: Record<string, number>; game: import('../static/js/game.js').GameView | null; analysis?: import('../static/js/analysis.js').AnalysisBoard | null };
}
