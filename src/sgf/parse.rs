//! Bytes to text (charsets) and text to trees (the parser).
//!
//! The parser is a loop over characters with an explicit stack of open
//! `(`: no recursion, so nesting depth is bounded only by memory.

use super::error::{SyntaxError, SyntaxErrorKind};
use super::tree::{GameTree, Node, Pos, Property};
use super::warning::{Warning, WarningKind};
use crate::text::clip;
use encoding_rs::Encoding;

/// How the reader treats deviations from the `FF[4]` grammar.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Refuse every leniency listed in the [module docs](super) instead of
    /// accepting it with a warning.
    pub strict: bool,
}

/// What [`read_bytes`] and [`read_str`] return: the trees and every
/// leniency used, as [`Warning`]s.
#[derive(Clone, Debug, Default)]
pub struct Collection {
    /// The game trees in file order.
    pub trees: Vec<GameTree>,
    /// Leniencies used and charset notes.
    pub warnings: Vec<Warning>,
    /// The charset the bytes were decoded with (`UTF-8` for text input).
    pub charset: String,
}

/// Finds the first `CA[...]` value in raw bytes (ASCII-compatible
/// charsets only; the value itself is ASCII in every real file).
fn find_ca(bytes: &[u8]) -> Option<String> {
    let mut i = 0;
    while i + 3 <= bytes.len() {
        if bytes[i] == b'C'
            && bytes[i + 1] == b'A'
            && (i == 0 || !bytes[i - 1].is_ascii_uppercase())
        {
            let mut j = i + 2;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < bytes.len() && bytes[j] == b'[' {
                let start = j + 1;
                let mut k = start;
                while k < bytes.len() && bytes[k] != b']' && k - start < 64 {
                    k += 1;
                }
                if k < bytes.len() && bytes[k] == b']' {
                    let v = String::from_utf8_lossy(&bytes[start..k]);
                    return Some(v.trim().trim_end_matches('\\').trim().to_string());
                }
            }
        }
        i += 1;
    }
    None
}

/// The encoding for an SGF `CA` value, with the aliases real files use
/// beyond the WHATWG labels (`UTF8`, `EUC-CN`, `ISO8859_1`, `ASCII`).
pub fn encoding_for_charset(name: &str) -> Option<&'static Encoding> {
    let n = name.trim().to_ascii_lowercase();
    if let Some(e) = Encoding::for_label(n.as_bytes()) {
        return Some(e);
    }
    let alias = match n.as_str() {
        "euc-cn" | "euccn" | "cp936" | "gb-2312" => "gbk",
        "iso8859_1" | "iso_8859_1" | "latin-1" => "iso-8859-1",
        "iso8859_15" | "iso_8859_15" => "iso-8859-15",
        "sjis" | "shift-jis" | "cp932" => "shift_jis",
        "cp949" | "uhc" => "euc-kr",
        "mac-roman" | "macroman" => "macintosh",
        _ => "",
    };
    if !alias.is_empty() {
        return Encoding::for_label(alias.as_bytes());
    }
    // `ISO8859-1`, `WINDOWS_1251`: try with `_` as `-`.
    let dashed = n.replace('_', "-");
    Encoding::for_label(dashed.as_bytes())
}

/// Decodes SGF bytes to text: a BOM wins (UTF-8, UTF-16 LE/BE); then
/// UTF-16 without BOM is recognised by its zero bytes; then the first
/// `CA[]` value in the bytes (when the game trees of one file declare
/// different charsets, each tree's bytes are decoded by its own); without
/// one, UTF-8 if the bytes are valid UTF-8 (`FF[4]` says Latin-1, but every
/// modern file is UTF-8), else the charset `chardetng` guesses. Returns the text, the
/// charset used, and notes. With `strict`, an unknown `CA` or bytes
/// invalid in the declared charset are errors.
///
/// # Errors
/// Only with `strict`: an unknown or unusable charset.
pub fn decode(bytes: &[u8], strict: bool) -> Result<(String, String, Vec<Warning>), SyntaxError> {
    let mut notes = Vec::new();
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let (text, had_errors) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        if had_errors {
            if strict {
                return Err(SyntaxError::at_start(
                    SyntaxErrorKind::BytesInvalidAfterBom {
                        charset: enc.name().to_string(),
                    },
                ));
            }
            notes.push(Warning::at_start(WarningKind::BytesReplaced {
                charset: enc.name().to_string(),
            }));
        }
        return Ok((text.into_owned(), enc.name().to_string(), notes));
    }
    // UTF-16 without BOM: the first non-space character is `(` with a zero
    // byte beside it.
    if bytes.len() >= 2 {
        let even_zero = bytes
            .iter()
            .step_by(2)
            .take(64)
            .filter(|&&b| b == 0)
            .count();
        let odd_zero = bytes
            .iter()
            .skip(1)
            .step_by(2)
            .take(64)
            .filter(|&&b| b == 0)
            .count();
        let half = bytes.len().min(128) / 2;
        let enc = if odd_zero * 4 > half * 3 && even_zero == 0 {
            Some(encoding_rs::UTF_16LE)
        } else if even_zero * 4 > half * 3 && odd_zero == 0 {
            Some(encoding_rs::UTF_16BE)
        } else {
            None
        };
        if let Some(enc) = enc {
            let (text, _) = enc.decode_without_bom_handling(bytes);
            notes.push(Warning::at_start(WarningKind::NoByteOrderMark {
                charset: enc.name().to_string(),
            }));
            return Ok((text.into_owned(), enc.name().to_string(), notes));
        }
    }
    // Each game tree may declare its own charset (CA is a root property).
    let segments = split_trees(bytes);
    let declared: Vec<Option<String>> = segments
        .iter()
        .map(|r| find_ca(&bytes[r.clone()]))
        .collect();
    let distinct: std::collections::BTreeSet<String> = declared
        .iter()
        .flatten()
        .map(|d| d.to_ascii_lowercase())
        .collect();
    if distinct.len() > 1 {
        let mut text = String::with_capacity(bytes.len());
        let mut names = Vec::new();
        for (r, d) in segments.iter().zip(&declared) {
            let (t, enc) = decode_as(&bytes[r.clone()], d.as_deref(), true, strict, &mut notes)?;
            text.push_str(&t);
            if !names.contains(&enc.name()) {
                names.push(enc.name());
            }
        }
        notes.push(Warning::at_start(WarningKind::SeveralCharsets {
            charsets: names.iter().map(|n| n.to_string()).collect(),
        }));
        return Ok((text, names.join(","), notes));
    }
    let first = declared.into_iter().flatten().next();
    let (text, enc) = decode_as(bytes, first.as_deref(), false, strict, &mut notes)?;
    Ok((text, enc.name().to_string(), notes))
}

/// Splits raw bytes after each top-level game tree (a `(` ... `)` with
/// values and escapes skipped), the last piece running to the end. Used only
/// to find each tree's `CA`; the trees are parsed from the decoded text.
fn split_trees(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut depth, mut in_value, mut escaped, mut start) = (0usize, false, false, 0usize);
    for (i, &b) in bytes.iter().enumerate() {
        if in_value {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b']' {
                in_value = false;
            }
            continue;
        }
        match b {
            b'[' if depth > 0 => in_value = true,
            b'(' => depth += 1,
            b')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(start..i + 1);
                    start = i + 1;
                }
            }
            _ => {}
        }
    }
    if start < bytes.len() || out.is_empty() {
        out.push(start..bytes.len());
    }
    out
}

/// Decodes `bytes` in the charset `declared` names; without a usable one,
/// as UTF-8 if valid, else as Latin-1 (`FF[4]`'s default; `latin1`, for one
/// tree among trees in other charsets) or as `chardetng` guesses (a whole
/// file).
fn decode_as(
    bytes: &[u8],
    declared: Option<&str>,
    latin1: bool,
    strict: bool,
    notes: &mut Vec<Warning>,
) -> Result<(String, &'static Encoding), SyntaxError> {
    let enc = match declared {
        Some("") => None,
        Some(name) => match encoding_for_charset(name) {
            Some(e) => Some(e),
            None => {
                if strict {
                    return Err(SyntaxError::at_start(SyntaxErrorKind::UnknownCharset {
                        name: clip(name),
                    }));
                }
                notes.push(Warning::at_start(WarningKind::UnknownCharset {
                    name: clip(name),
                }));
                None
            }
        },
        None => None,
    };
    let enc = match enc {
        Some(e) if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE => {
            // A UTF-16 declaration on bytes that are not UTF-16 (no zeros).
            notes.push(Warning::at_start(WarningKind::NotUtf16 {
                declared: e.name().to_string(),
            }));
            None
        }
        e => e,
    };
    let enc = match enc {
        Some(e) => e,
        None => {
            if std::str::from_utf8(bytes).is_ok() {
                encoding_rs::UTF_8
            } else if latin1 {
                encoding_rs::WINDOWS_1252
            } else {
                let mut det =
                    chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
                det.feed(bytes, true);
                let guess = det.guess(None, chardetng::Utf8Detection::Allow);
                notes.push(Warning::at_start(WarningKind::GuessedCharset {
                    charset: guess.name().to_string(),
                }));
                guess
            }
        }
    };
    let (text, had_errors) = enc.decode_without_bom_handling(bytes);
    if had_errors {
        if strict {
            return Err(SyntaxError::at_start(SyntaxErrorKind::BytesInvalid {
                charset: enc.name().to_string(),
            }));
        }
        notes.push(Warning::at_start(WarningKind::BytesReplaced {
            charset: enc.name().to_string(),
        }));
    }
    Ok((text.into_owned(), enc))
}

/// Reads every game tree from raw file bytes (charset handling as
/// [`decode`]).
///
/// # Errors
/// [`SyntaxError`] at the first place the text cannot be read (or, with
/// `strict`, the first leniency needed).
pub fn read_bytes(bytes: &[u8], opts: ReadOptions) -> Result<Collection, SyntaxError> {
    let (text, charset, notes) = decode(bytes, opts.strict)?;
    let mut c = read_str(&text, opts)?;
    let mut warnings = notes;
    warnings.append(&mut c.warnings);
    c.warnings = warnings;
    c.charset = charset;
    Ok(c)
}

/// A cursor over the characters with line and column.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Pos,
    prev_cr: bool,
}

impl<'a> Cursor<'a> {
    fn new(s: &'a str) -> Cursor<'a> {
        Cursor {
            chars: s.chars().peekable(),
            pos: Pos { line: 1, column: 1 },
            prev_cr: false,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        match c {
            '\n' if self.prev_cr => {
                self.prev_cr = false;
            }
            '\n' | '\r' => {
                self.pos.line += 1;
                self.pos.column = 1;
                self.prev_cr = c == '\r';
            }
            _ => {
                self.pos.column += 1;
                self.prev_cr = false;
            }
        }
        Some(c)
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_whitespace()) {
            self.next();
        }
    }
}

/// One open `(`: the node the next `;` attaches to, and whether a
/// variation closed inside it (so a further `;` is an `FF[1]`-style
/// continuation).
struct Frame {
    last: Option<usize>,
    has_node: bool,
    after_variation: bool,
    open_pos: Pos,
}

/// The state of one game tree under construction.
struct Builder {
    nodes: Vec<Node>,
}

impl Builder {
    fn new() -> Builder {
        Builder { nodes: Vec::new() }
    }

    fn add(&mut self, parent: Option<usize>, first: bool) -> usize {
        let i = self.nodes.len();
        self.nodes.push(Node::default());
        if let Some(p) = parent {
            if first {
                self.nodes[p].children.insert(0, i);
            } else {
                self.nodes[p].children.push(i);
            }
        }
        i
    }

    fn finish(self) -> Option<GameTree> {
        if self.nodes.is_empty() {
            return None;
        }
        let mut t = GameTree { nodes: self.nodes };
        t.renumber();
        Some(t)
    }
}

fn err(pos: Pos, kind: SyntaxErrorKind) -> SyntaxError {
    SyntaxError::new(pos, kind)
}

/// Reads every game tree from text.
///
/// # Errors
/// [`SyntaxError`] at the first place the text cannot be read (or, with
/// `strict`, the first leniency needed).
pub fn read_str(text: &str, opts: ReadOptions) -> Result<Collection, SyntaxError> {
    let strict = opts.strict;
    let mut cur = Cursor::new(text);
    let mut trees: Vec<GameTree> = Vec::new();
    let mut warnings: Vec<Warning> = Vec::new();
    let mut dropped = 0usize;
    let mut long_names = std::collections::HashSet::new();
    let mut warn = |pos: Pos, kind: WarningKind| {
        // One warning per distinct long property name.
        if let WarningKind::LongName { raw, id } = &kind {
            if !long_names.insert((raw.clone(), id.clone())) {
                return;
            }
        }
        if warnings.len() < 100 {
            warnings.push(Warning::new(pos, kind));
        } else {
            dropped += 1;
        }
    };
    let mut junk_warned = false;
    loop {
        // Between trees: whitespace, or (leniently) junk up to the next `(`.
        cur.skip_ws();
        let pos = cur.pos;
        match cur.peek() {
            None => break,
            Some('(') if strict || tree_starts_here(&cur) => {}
            Some(c) => {
                if strict {
                    let found = Some(c);
                    let kind = if trees.is_empty() {
                        SyntaxErrorKind::ExpectedTree { found }
                    } else {
                        SyntaxErrorKind::ExpectedTreeOrEnd { found }
                    };
                    return Err(err(pos, kind));
                }
                if !junk_warned {
                    warn(pos, WarningKind::TextOutsideTree);
                    junk_warned = true;
                }
                cur.next();
                continue;
            }
        }
        // A game tree.
        cur.next();
        let mut b = Builder::new();
        let mut stack = vec![Frame {
            last: None,
            has_node: false,
            after_variation: false,
            open_pos: pos,
        }];
        // Expect `;` first.
        cur.skip_ws();
        match cur.peek() {
            Some(';') | Some('(') => {}
            Some(c) if c.is_ascii_alphabetic() => {
                if strict {
                    return Err(err(
                        cur.pos,
                        SyntaxErrorKind::ExpectedSemicolon { found: Some(c) },
                    ));
                }
                warn(cur.pos, WarningKind::MissingSemicolon);
                let n = b.add(None, false);
                stack[0].last = Some(n);
                stack[0].has_node = true;
                read_properties(&mut cur, &mut b.nodes[n], strict, &mut warn)?;
            }
            Some(')') => {
                if strict {
                    return Err(err(
                        cur.pos,
                        SyntaxErrorKind::ExpectedSemicolon { found: Some(')') },
                    ));
                }
                warn(cur.pos, WarningKind::EmptyTree);
                cur.next();
                continue;
            }
            other => {
                if other.is_none() && trees.is_empty() {
                    return Err(err(cur.pos, SyntaxErrorKind::EndBeforeSemicolon));
                }
                if other.is_none() {
                    warn(cur.pos, WarningKind::UnclosedParen);
                    break;
                }
                return Err(err(
                    cur.pos,
                    SyntaxErrorKind::ExpectedSemicolon { found: other },
                ));
            }
        }
        // Inside the tree.
        loop {
            cur.skip_ws();
            let pos = cur.pos;
            match cur.peek() {
                Some(';') => {
                    cur.next();
                    let frame = stack.last_mut().expect("inside a tree");
                    let n = if frame.last.is_none() && !b.nodes.is_empty() {
                        // A second root in one tree: `((;a)(;b))`.
                        if strict {
                            return Err(err(pos, SyntaxErrorKind::TwoRoots));
                        }
                        warn(pos, WarningKind::TwoRoots);
                        frame.after_variation = false;
                        let done = std::mem::replace(&mut b, Builder::new());
                        trees.extend(done.finish());
                        b.add(None, false)
                    } else if frame.after_variation {
                        if strict {
                            return Err(err(pos, SyntaxErrorKind::NodeAfterVariation));
                        }
                        warn(pos, WarningKind::NodeAfterVariation);
                        frame.after_variation = false;
                        b.add(frame.last, true)
                    } else {
                        b.add(frame.last, false)
                    };
                    let frame = stack.last_mut().expect("inside a tree");
                    frame.last = Some(n);
                    frame.has_node = true;
                    read_properties(&mut cur, &mut b.nodes[n], strict, &mut warn)?;
                }
                Some('(') => {
                    cur.next();
                    let parent = stack.last().expect("inside a tree");
                    if !parent.has_node {
                        if strict {
                            return Err(err(
                                pos,
                                SyntaxErrorKind::ExpectedSemicolon { found: Some('(') },
                            ));
                        }
                        warn(pos, WarningKind::RedundantParen);
                    }
                    let last = parent.last;
                    stack.push(Frame {
                        last,
                        has_node: false,
                        after_variation: false,
                        open_pos: pos,
                    });
                    // A variation must start with a node.
                    cur.skip_ws();
                    if cur.peek() == Some(')') {
                        if strict {
                            return Err(err(
                                cur.pos,
                                SyntaxErrorKind::ExpectedSemicolon { found: Some(')') },
                            ));
                        }
                        warn(cur.pos, WarningKind::EmptyVariation);
                    }
                }
                Some(')') => {
                    cur.next();
                    stack.pop();
                    match stack.last_mut() {
                        Some(f) => f.after_variation = true,
                        None => break,
                    }
                }
                None => {
                    if strict {
                        let open = stack.last().map_or(pos, |f| f.open_pos);
                        return Err(err(pos, SyntaxErrorKind::UnclosedParen { open }));
                    }
                    warn(pos, WarningKind::MissingCloseParen);
                    break;
                }
                Some(c) => {
                    return Err(err(
                        pos,
                        SyntaxErrorKind::ExpectedNodeOrParen { found: Some(c) },
                    ));
                }
            }
        }
        if let Some(t) = b.finish() {
            trees.push(t);
        }
    }
    if trees.is_empty() {
        return Err(err(cur.pos, SyntaxErrorKind::NoGameTree));
    }
    if dropped > 0 {
        warnings.push(Warning::new(cur.pos, WarningKind::MoreNotShown(dropped)));
    }
    Ok(Collection {
        trees,
        warnings,
        charset: "UTF-8".to_string(),
    })
}

/// Whether the `(` under the cursor opens a game tree: `(` then `;`, `(`,
/// or a property (letters then `[`; the missing-`;` leniency), whitespace
/// allowed. Used to skip prose that contains parentheses.
fn tree_starts_here(cur: &Cursor<'_>) -> bool {
    let mut it = cur.chars.clone().skip(1).skip_while(|c| c.is_whitespace());
    match it.next() {
        Some(';') | Some('(') => true,
        Some(c) if c.is_ascii_alphabetic() => {
            let mut rest = it.skip_while(|c| c.is_ascii_alphabetic());
            let mut n = rest.next();
            while n.is_some_and(|c| c.is_whitespace()) {
                n = rest.next();
            }
            n == Some('[')
        }
        _ => false,
    }
}

/// Whether the text after an unescaped `]` looks like the SGF that follows
/// a value (another value, a property, a node, a tree mark, or the end),
/// rather than more comment text. Looks ahead without consuming.
fn value_really_ends(cur: &Cursor<'_>) -> bool {
    let mut it = cur.chars.clone();
    let mut c = it.next();
    while c.is_some_and(|c| c.is_whitespace()) {
        c = it.next();
    }
    match c {
        None | Some('[') | Some(';') | Some('(') | Some(')') => true,
        Some(c) if c.is_ascii_alphabetic() => {
            let mut c = Some(c);
            let mut len = 0;
            while c.is_some_and(|c| c.is_ascii_alphabetic()) {
                c = it.next();
                len += 1;
            }
            while c.is_some_and(|c| c.is_whitespace()) {
                c = it.next();
            }
            len <= 32 && c == Some('[')
        }
        _ => false,
    }
}

/// Reads the properties of one node (the cursor is after its `;`).
fn read_properties(
    cur: &mut Cursor<'_>,
    node: &mut Node,
    strict: bool,
    warn: &mut impl FnMut(Pos, WarningKind),
) -> Result<(), SyntaxError> {
    loop {
        cur.skip_ws();
        let pos = cur.pos;
        match cur.peek() {
            Some(c) if c.is_ascii_alphabetic() => {}
            _ => return Ok(()),
        }
        // The identifier.
        let mut raw_id = String::new();
        while let Some(c) = cur.peek() {
            if !c.is_ascii_alphabetic() {
                break;
            }
            if raw_id.len() >= 64 {
                return Err(err(pos, SyntaxErrorKind::IdentifierTooLong));
            }
            raw_id.push(c);
            cur.next();
        }
        let id: String = raw_id.chars().filter(|c| c.is_ascii_uppercase()).collect();
        if id != raw_id {
            if id.is_empty() {
                return Err(err(pos, SyntaxErrorKind::NoUpperCase { raw: raw_id }));
            }
            if strict {
                return Err(err(pos, SyntaxErrorKind::LongName { raw: raw_id }));
            }
            warn(
                pos,
                WarningKind::LongName {
                    raw: raw_id.to_string(),
                    id: id.clone(),
                },
            );
        }
        // The values.
        let mut values = Vec::new();
        loop {
            cur.skip_ws();
            if cur.peek() != Some('[') {
                break;
            }
            let vpos = cur.pos;
            cur.next();
            let mut v = String::new();
            loop {
                match cur.next() {
                    None => {
                        return Err(err(cur.pos, SyntaxErrorKind::UnclosedValue { open: vpos }))
                    }
                    Some('\\') => match cur.next() {
                        None => {
                            return Err(err(cur.pos, SyntaxErrorKind::UnclosedValue { open: vpos }))
                        }
                        Some(x) => {
                            v.push('\\');
                            v.push(x);
                        }
                    },
                    Some(']') => {
                        if strict || value_really_ends(cur) {
                            break;
                        }
                        warn(vpos, WarningKind::UnescapedBracket { id: id.clone() });
                        v.push_str("\\]");
                    }
                    Some(c) => v.push(c),
                }
            }
            values.push(v);
        }
        if values.is_empty() {
            let found = cur.peek();
            return Err(err(cur.pos, SyntaxErrorKind::ExpectedValue { id, found }));
        }
        if let Some(p) = node.props.iter_mut().find(|p| p.id == id) {
            if strict {
                return Err(err(pos, SyntaxErrorKind::RepeatedProperty { id }));
            }
            warn(pos, WarningKind::RepeatedProperty { id: id.clone() });
            p.values.extend(values);
        } else {
            node.props.push(Property { id, values, pos });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lenient(s: &str) -> Collection {
        read_str(s, ReadOptions::default()).unwrap()
    }

    fn strict_err(s: &str) -> SyntaxError {
        read_str(s, ReadOptions { strict: true }).unwrap_err()
    }

    #[test]
    fn reads_variations_and_main_line() {
        let c = lenient("(;GM[1](;B[aa];W[bb])(;B[cc]))");
        let t = &c.trees[0];
        assert_eq!(t.nodes.len(), 4);
        let main: Vec<_> = t
            .main_line()
            .iter()
            .map(|&i| t.nodes[i].props.first().map(|p| p.values[0].clone()))
            .collect();
        assert_eq!(
            main,
            [Some("1".into()), Some("aa".into()), Some("bb".into())]
        );
        assert!(c.warnings.is_empty());
    }

    #[test]
    fn ff1_continuation_goes_on_the_main_line() {
        let c = lenient("(;B[aa](;W[bb];B[cc]);W[dd];B[ee])");
        let t = &c.trees[0];
        let main: Vec<_> = t
            .main_line()
            .iter()
            .map(|&i| t.nodes[i].props[0].values[0].clone())
            .collect();
        assert_eq!(main, ["aa", "dd", "ee"]);
        assert_eq!(t.nodes[0].children.len(), 2);
        assert_eq!(c.warnings.len(), 1);
        assert_eq!(
            strict_err("(;B[aa](;W[bb]);W[dd])").pos,
            Pos {
                line: 1,
                column: 16
            }
        );
    }

    #[test]
    fn positions_count_lines_and_columns() {
        let e = strict_err("(;B[aa]\r\n;W[bb]\n ;B[cc");
        assert_eq!(e.pos, Pos { line: 3, column: 7 });
        let message = e.kind.to_string();
        assert!(message.contains("expected ']'"), "{message}");
        assert!(message.contains("3:4"), "{message}");
    }
}
