//! PGN text as tokens, each with the line it starts on: tags, comments, variations, NAGs,
//! game termination markers and symbols (moves and move numbers). Nothing here knows a game.

use super::{PgnError, PgnErrorKind, PgnResult};

/// One token of PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `[Name "value"]`, the value unescaped.
    Tag {
        /// The tag's name.
        name: &'a str,
        /// The tag's value.
        value: String,
    },
    /// `{…}` or `;…` to the end of the line, without its delimiters.
    Comment(&'a str),
    /// `(`: a variation starts.
    Open,
    /// `)`: a variation ends.
    Close,
    /// `$n`, a numeric annotation glyph.
    Nag,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(PgnResult),
    /// Anything else between separators: a move, a move number, or both (`1.h2e2`).
    Symbol(&'a str),
}

/// A token and the 1-based line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<'a> {
    /// The line.
    pub line: usize,
    /// The token.
    pub token: Token<'a>,
}

/// Characters that end a symbol.
fn separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | '"' | ';')
}

/// Whether the text after a `(` is a unit in parentheses that a symbol goes on from (a
/// Commander stack, `(NI)c8b7`), not a variation: letters and `+` up to the `)`, then no
/// separator.
fn unit_ahead(after: &str) -> bool {
    let Some(close) = after.find(')') else { return false };
    let inner = &after[..close];
    !inner.is_empty()
        && inner.chars().all(|c| c.is_ascii_alphabetic() || c == '+')
        && after[close + 1..].chars().next().is_some_and(|c| !separator(c))
}

/// Splits PGN text into tokens.
pub fn tokens(text: &str) -> Result<Vec<Located<'_>>, PgnError> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut at_line_start = true;
    let mut rest = text.char_indices().peekable();
    let err = |line, kind| PgnError { line, game: 0, kind };
    while let Some((i, c)) = rest.next() {
        let start_line = line;
        let line_start = at_line_start;
        at_line_start = c == '\n';
        if c == '\n' {
            line += 1;
            continue;
        }
        if c.is_whitespace() {
            continue;
        }
        match c {
            // An escape line: left to the program that wrote it.
            '%' if line_start => {
                for (_, c) in rest.by_ref() {
                    if c == '\n' {
                        line += 1;
                        at_line_start = true;
                        break;
                    }
                }
            }
            ';' => {
                let mut end = text.len();
                for (j, c) in rest.by_ref() {
                    if c == '\n' {
                        end = j;
                        line += 1;
                        at_line_start = true;
                        break;
                    }
                }
                out.push(Located { line: start_line, token: Token::Comment(&text[i + 1..end]) });
            }
            '{' => {
                let mut end = None;
                for (j, c) in rest.by_ref() {
                    match c {
                        '}' => {
                            end = Some(j);
                            break;
                        }
                        '\n' => line += 1,
                        _ => {}
                    }
                }
                let end = end.ok_or_else(|| err(start_line, PgnErrorKind::UnclosedComment))?;
                out.push(Located { line: start_line, token: Token::Comment(&text[i + 1..end]) });
            }
            '(' if !unit_ahead(&text[i + 1..]) => out.push(Located { line, token: Token::Open }),
            ')' => out.push(Located { line, token: Token::Close }),
            '[' => {
                let (name, value) = tag(text, &mut rest)
                    .ok_or_else(|| err(start_line, PgnErrorKind::BadTag(cut(&text[i..]))))?;
                out.push(Located { line: start_line, token: Token::Tag { name, value } });
            }
            ']' | '}' | '"' => {
                return Err(err(line, PgnErrorKind::Unexpected(c)));
            }
            _ => {
                let mut end = text.len();
                // Parentheses inside a symbol belong to it (a Commander stack, `(NI)c8b7`).
                let mut depth = usize::from(c == '(');
                while let Some(&(j, c)) = rest.peek() {
                    match c {
                        '(' => depth += 1,
                        ')' if depth > 0 => depth -= 1,
                        c if separator(c) => {
                            end = j;
                            break;
                        }
                        _ => {}
                    }
                    rest.next();
                }
                let symbol = &text[i..end];
                let token = if let Some(result) = PgnResult::parse(symbol) {
                    Token::Result(result)
                } else if symbol.starts_with('$') {
                    Token::Nag
                } else {
                    Token::Symbol(symbol)
                };
                out.push(Located { line, token });
            }
        }
    }
    Ok(out)
}

/// Whether `text` reads as exactly one symbol, itself.
pub fn one_symbol(text: &str) -> bool {
    matches!(tokens(text).as_deref(), Ok([Located { token: Token::Symbol(s), .. }]) if *s == text)
}

/// The start of `text` for an error message.
pub fn cut(text: &str) -> String {
    text.lines().next().unwrap_or("").chars().take(40).collect()
}

/// Reads a tag after its `[`; `None` when it is malformed. A tag stays on its line.
fn tag<'a>(
    text: &'a str,
    rest: &mut std::iter::Peekable<std::str::CharIndices<'a>>,
) -> Option<(&'a str, String)> {
    let inline = |c: char| c == ' ' || c == '\t';
    while rest.next_if(|&(_, c)| inline(c)).is_some() {}
    let name_start = rest.peek().map_or(text.len(), |&(j, _)| j);
    let mut name_end = name_start;
    while let Some((j, c)) = rest.next_if(|&(_, c)| c.is_alphanumeric() || c == '_') {
        name_end = j + c.len_utf8();
    }
    let name = &text[name_start..name_end];
    while rest.next_if(|&(_, c)| inline(c)).is_some() {}
    if name.is_empty() || rest.next()?.1 != '"' {
        return None;
    }
    let mut value = String::new();
    loop {
        match rest.next()?.1 {
            '\n' => return None,
            '"' => break,
            '\\' => match rest.next()?.1 {
                c @ ('"' | '\\') => value.push(c),
                _ => return None,
            },
            c => value.push(c),
        }
    }
    while rest.next_if(|&(_, c)| inline(c)).is_some() {}
    (rest.next()?.1 == ']').then_some((name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_token_is_found_with_its_line() {
        let text = "[Event \"a \\\"b\\\"\"]\n\n% escape\n1. h2e2 {+0.35/12\n0.2s} $1 (1... h9g7) ; rest\nh9g7 1-0";
        let t = tokens(text).unwrap();
        let kinds: Vec<(usize, Token)> = t.into_iter().map(|l| (l.line, l.token)).collect();
        assert_eq!(
            kinds,
            vec![
                (1, Token::Tag { name: "Event", value: "a \"b\"".into() }),
                (4, Token::Symbol("1.")),
                (4, Token::Symbol("h2e2")),
                (4, Token::Comment("+0.35/12\n0.2s")),
                (5, Token::Nag),
                (5, Token::Open),
                (5, Token::Symbol("1...")),
                (5, Token::Symbol("h9g7")),
                (5, Token::Close),
                (5, Token::Comment(" rest")),
                (6, Token::Symbol("h9g7")),
                (6, Token::Result(PgnResult::FirstWins)),
            ]
        );
    }

    #[test]
    fn a_stack_in_parentheses_is_part_of_its_move_and_a_variation_is_not() {
        let t = tokens("1. (NI)c8b7 h9::(NF)>h7 ((NI)c8b7) (h9g7)").unwrap();
        let kinds: Vec<Token> = t.into_iter().map(|l| l.token).collect();
        assert_eq!(
            kinds,
            vec![
                Token::Symbol("1."),
                Token::Symbol("(NI)c8b7"),
                Token::Symbol("h9::(NF)>h7"),
                Token::Open,
                Token::Symbol("(NI)c8b7"),
                Token::Close,
                Token::Open,
                Token::Symbol("h9g7"),
                Token::Close,
            ]
        );
    }

    #[test]
    fn unclosed_or_stray_delimiters_name_their_line() {
        for (text, line) in [("\n{never closed", 2), ("[Event \"x]\n", 1), ("a\nb ]", 2)] {
            assert_eq!(tokens(text).unwrap_err().line, line, "{text:?}");
        }
    }
}
