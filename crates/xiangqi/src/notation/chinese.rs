//! Traditional Chinese notation: `炮二平五`, `馬8進7`, `前車進一`.

use super::{Direction, Which};
use crate::{Colour, Kind, Move, MoveError, Position};

const RED_NUMERALS: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn number(c: Colour, n: u8) -> char {
    match c {
        Colour::Red => RED_NUMERALS[n as usize % 10],
        Colour::Black => (b'0' + n % 10) as char,
    }
}

fn name(c: Colour, k: Kind) -> char {
    match (k, c) {
        (Kind::General, Colour::Red) => '帥',
        (Kind::General, Colour::Black) => '將',
        (Kind::Advisor, Colour::Red) => '仕',
        (Kind::Advisor, Colour::Black) => '士',
        (Kind::Elephant, Colour::Red) => '相',
        (Kind::Elephant, Colour::Black) => '象',
        (Kind::Horse, _) => '馬',
        (Kind::Chariot, _) => '車',
        (Kind::Cannon, _) => '炮',
        (Kind::Soldier, Colour::Red) => '兵',
        (Kind::Soldier, Colour::Black) => '卒',
    }
}

impl Position {
    /// The traditional Chinese notation of a legal move. Front and rear pieces are `前`/`後`
    /// (and `中` for the middle of three soldiers on a file); with four or more soldiers on a
    /// file, or crowded soldiers on several files, the soldier's order from the front is
    /// written as a numeral and its file follows the name (`二兵七平八`), mirroring WXF's
    /// `27=8`.
    ///
    /// ```
    /// use cannonade_xiangqi::Position;
    /// let p = Position::startpos();
    /// assert_eq!(p.chinese(p.parse_move("h2e2").unwrap()), "炮二平五");
    /// ```
    pub fn chinese(&self, mv: Move) -> String {
        let Some(d) = self.describe(mv) else { return mv.to_string() };
        let c = d.colour;
        let mut s = String::with_capacity(12);
        match d.which {
            Which::File(f) => {
                s.push(name(c, d.kind));
                s.push(number(c, f));
            }
            Which::Front => {
                s.push('前');
                s.push(name(c, d.kind));
            }
            Which::Rear => {
                s.push('後');
                s.push(name(c, d.kind));
            }
            Which::Order { order, of, file } => {
                let word = match (order, of) {
                    (1, 2) | (1, 3) => '前',
                    (2, 3) => '中',
                    (2, 2) | (3, 3) => '後',
                    _ => number(c, order),
                };
                s.push(word);
                s.push(name(c, d.kind));
                s.push(number(c, file));
            }
        }
        s.push(match d.direction {
            Direction::Forward => '進',
            Direction::Backward => '退',
            Direction::Sideways => '平',
        });
        s.push(number(c, d.number));
        s
    }

    /// Reads a move in Chinese notation (simplified 进/后 and full-width digits accepted) and
    /// checks it.
    pub fn parse_chinese(&self, text: &str) -> Result<Move, MoveError> {
        let norm: String = text
            .trim()
            .chars()
            .map(|ch| match ch {
                '进' => '進',
                '后' => '後',
                '车' => '車',
                '马' => '馬',
                '帅' => '帥',
                '将' => '將',
                '砲' | '包' => '炮',
                '１'..='９' => char::from_u32(ch as u32 - '１' as u32 + '1' as u32).unwrap_or(ch),
                c => c,
            })
            .collect();
        self.find_by_notation(&norm, Position::chinese)
    }
}
