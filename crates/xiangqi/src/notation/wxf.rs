//! WXF notation: `C2=5`, `H8+7`, `R+=4`, `15+1`.

use super::{Direction, Which};
use crate::{Move, MoveError, Position};

impl Position {
    /// The WXF notation of a legal move, as Fairy-Stockfish writes it.
    ///
    /// ```
    /// use cannonade_xiangqi::Position;
    /// let p = Position::startpos();
    /// assert_eq!(p.wxf(p.parse_move("h2e2").unwrap()), "C2=5");
    /// assert_eq!(p.parse_wxf("H2+3").unwrap().to_string(), "h0g2");
    /// ```
    pub fn wxf(&self, mv: Move) -> String {
        let Some(d) = self.describe(mv) else { return mv.to_string() };
        let letter = d.kind.wxf_letter();
        let mut s = String::with_capacity(4);
        match d.which {
            Which::File(f) => {
                s.push(letter);
                s.push((b'0' + f) as char);
            }
            Which::Front => {
                s.push(letter);
                s.push('+');
            }
            Which::Rear => {
                s.push(letter);
                s.push('-');
            }
            Which::Order { order, file, .. } => {
                s.push((b'0' + order) as char);
                s.push((b'0' + file) as char);
            }
        }
        s.push(match d.direction {
            Direction::Forward => '+',
            Direction::Backward => '-',
            Direction::Sideways => '=',
        });
        s.push((b'0' + d.number) as char);
        s
    }

    /// Reads a WXF move (`.` accepted for `=`, letters `B`/`N` for `E`/`H`) and checks it.
    pub fn parse_wxf(&self, text: &str) -> Result<Move, MoveError> {
        let norm: String = text
            .trim()
            .chars()
            .map(|c| match c.to_ascii_uppercase() {
                '.' => '=',
                'B' => 'E',
                'N' => 'H',
                c => c,
            })
            .collect();
        self.find_by_notation(&norm, Position::wxf)
    }
}
