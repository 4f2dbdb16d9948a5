//! The SGF tree model and the writer.
//!
//! A [`GameTree`] keeps its nodes in an arena (a `Vec`), numbered in
//! pre-order (the order they are written), so that trees of any depth are
//! built, compared, cloned, dropped and written without recursion. Every
//! property is kept, known or not, with its values as they stood between the
//! brackets (escapes included), so writing a tree back loses nothing.

use std::fmt;

/// Where something stands in the decoded text: line and column, both from 1
/// (the column counts characters).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One property: an identifier (upper-case letters) and its values.
///
/// Values are *raw*: the text between `[` and `]` with its escapes, so
/// `C[a\]b]` holds `a\]b`. Read them with [`Property::text`],
/// [`Property::simple_text`] or [`Property::compose`]; build them with
/// [`Property::from_text`] or [`escape`]. Equality ignores [`Property::pos`].
#[derive(Clone, Debug)]
pub struct Property {
    /// The identifier, e.g. `B`, `AB`, `KM`.
    pub id: String,
    /// The raw values.
    pub values: Vec<String>,
    /// Where the identifier stood in the file (default for built trees).
    pub pos: Pos,
}

impl PartialEq for Property {
    fn eq(&self, other: &Property) -> bool {
        self.id == other.id && self.values == other.values
    }
}

impl Eq for Property {}

impl Property {
    /// A property with raw values.
    pub fn new(id: &str, values: Vec<String>) -> Property {
        Property {
            id: id.to_string(),
            values,
            pos: Pos::default(),
        }
    }

    /// A property with one text value, escaped as needed.
    pub fn from_text(id: &str, text: &str) -> Property {
        Property::new(id, vec![escape(text)])
    }

    /// The first value as text (SGF type Text): escapes removed, soft line
    /// breaks (a backslash before a line break) removed.
    pub fn text(&self) -> String {
        self.values
            .first()
            .map_or_else(String::new, |v| unescape(v))
    }

    /// The first value as SimpleText: like [`Property::text`], and every
    /// line break or tab becomes a space; trimmed.
    pub fn simple_text(&self) -> String {
        let t = self.text();
        t.chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .collect::<String>()
            .trim()
            .to_string()
    }

    /// The first value split at its first unescaped `:` (a composed value
    /// such as `AP[Kosumi:0.1]` or `SZ[19:13]`), both halves unescaped.
    pub fn compose(&self) -> (String, Option<String>) {
        let v = self.values.first().map_or("", |s| s.as_str());
        match split_compose(v) {
            Some((a, b)) => (unescape(a), Some(unescape(b))),
            None => (unescape(v), None),
        }
    }
}

/// Splits a raw value at its first unescaped `:`.
pub fn split_compose(raw: &str) -> Option<(&str, &str)> {
    let mut escaped = false;
    for (i, c) in raw.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == ':' {
            return Some((&raw[..i], &raw[i + 1..]));
        }
    }
    None
}

/// Raw value text for `text`: `\` and `]` escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text of a raw value: `\x` becomes `x`; a backslash before a line break
/// (`\n`, `\r\n`, `\r`, `\n\r`) removes both.
pub fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut it = raw.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('\n') => {
                it.next_if_eq(&'\r');
            }
            Some('\r') => {
                it.next_if_eq(&'\n');
            }
            Some(x) => out.push(x),
            None => {}
        }
    }
    out
}

/// One node: its properties, in file order, and its children (indices into
/// the tree's arena; the first child continues the main line).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Node {
    /// The properties, each identifier at most once.
    pub props: Vec<Property>,
    /// Child node indices; the first is the main line.
    pub children: Vec<usize>,
}

impl Node {
    /// The property with this identifier.
    pub fn get(&self, id: &str) -> Option<&Property> {
        self.props.iter().find(|p| p.id == id)
    }

    /// The property's first raw value.
    pub fn value(&self, id: &str) -> Option<&str> {
        self.get(id)
            .and_then(|p| p.values.first())
            .map(|s| s.as_str())
    }
}

/// One game tree: an arena of nodes in pre-order, node 0 the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree {
    /// The nodes; `nodes[0]` is the root (a tree always has one; the
    /// methods panic on an empty `nodes`).
    pub nodes: Vec<Node>,
}

impl Default for GameTree {
    fn default() -> GameTree {
        GameTree {
            nodes: vec![Node::default()],
        }
    }
}

impl GameTree {
    /// The root node.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// The node indices of the main line, root first (first child each
    /// time).
    pub fn main_line(&self) -> Vec<usize> {
        let mut out = vec![0];
        let mut i = 0;
        while let Some(&c) = self.nodes[i].children.first() {
            out.push(c);
            i = c;
        }
        out
    }

    /// Whether any node has more than one child.
    pub fn has_variations(&self) -> bool {
        self.nodes.iter().any(|n| n.children.len() > 1)
    }

    /// Renumbers the nodes in pre-order (children in order), the numbering
    /// the writer and the parser use, so that equal trees compare equal.
    pub fn renumber(&mut self) {
        let n = self.nodes.len();
        let mut order = Vec::with_capacity(n);
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            order.push(i);
            for &c in self.nodes[i].children.iter().rev() {
                stack.push(c);
            }
        }
        let mut new_index = vec![usize::MAX; n];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let mut old_nodes: Vec<Option<Node>> = std::mem::take(&mut self.nodes)
            .into_iter()
            .map(Some)
            .collect();
        for &old in &order {
            let mut node = old_nodes[old].take().expect("each node once");
            for c in node.children.iter_mut() {
                *c = new_index[*c];
            }
            self.nodes.push(node);
        }
    }

    /// The tree as SGF text, properties written as they are (see
    /// [`write_collection`]).
    pub fn to_sgf(&self) -> String {
        let mut out = String::new();
        write_tree(self, &mut out);
        out
    }
}

/// Writes a node's properties.
fn write_node(node: &Node, out: &mut String) {
    out.push(';');
    for p in &node.props {
        out.push_str(&p.id);
        for v in &p.values {
            out.push('[');
            out.push_str(v);
            out.push(']');
        }
    }
}

/// Writes one tree without recursion: a sequence of single-child nodes
/// stays one sequence; at a branch each child opens its own `( ... )`.
fn write_tree(tree: &GameTree, out: &mut String) {
    enum Step {
        Open(usize),
        Close,
    }
    let mut stack = vec![Step::Open(0)];
    let mut nodes_on_line = 0usize;
    while let Some(step) = stack.pop() {
        match step {
            Step::Close => out.push(')'),
            Step::Open(start) => {
                out.push('(');
                let mut i = start;
                loop {
                    write_node(&tree.nodes[i], out);
                    nodes_on_line += 1;
                    if i == 0 || nodes_on_line >= 12 {
                        out.push('\n');
                        nodes_on_line = 0;
                    }
                    let ch = &tree.nodes[i].children;
                    if ch.len() == 1 {
                        i = ch[0];
                        continue;
                    }
                    stack.push(Step::Close);
                    for &c in ch.iter().rev() {
                        stack.push(Step::Open(c));
                    }
                    break;
                }
            }
        }
    }
    out.push('\n');
}

/// Several trees as one SGF text, each property as it stands. A tree read
/// from a file in another charset keeps its `CA` value: to write a file,
/// use [`to_utf8_file_text`], which sets `CA[UTF-8]`.
pub fn write_collection(trees: &[GameTree]) -> String {
    let mut out = String::new();
    for t in trees {
        write_tree(t, &mut out);
    }
    out
}

/// Like [`write_collection`], with each root's `CA` set to `UTF-8` (the
/// text is UTF-8 whatever the file it came from said).
pub fn to_utf8_file_text(trees: &[GameTree]) -> String {
    let fixed: Vec<GameTree> = trees
        .iter()
        .map(|t| {
            let mut t = t.clone();
            let root = &mut t.nodes[0];
            match root.props.iter_mut().find(|p| p.id == "CA") {
                Some(p) => p.values = vec!["UTF-8".to_string()],
                None => root.props.push(Property::new("CA", vec!["UTF-8".into()])),
            }
            t
        })
        .collect();
    write_collection(&fixed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_and_unescape() {
        assert_eq!(escape("a]b\\c"), "a\\]b\\\\c");
        assert_eq!(unescape("a\\]b\\\\c"), "a]b\\c");
        assert_eq!(unescape("soft\\\nbreak"), "softbreak");
        assert_eq!(unescape("soft\\\r\nbreak"), "softbreak");
        assert_eq!(unescape("keep\nbreak"), "keep\nbreak");
        assert_eq!(unescape("\\:"), ":");
        assert_eq!(split_compose("a\\:b:c"), Some(("a\\:b", "c")));
        assert_eq!(split_compose("abc"), None);
    }

    #[test]
    fn renumber_is_preorder() {
        // 0 -> [2, 1], 2 -> [3]: pre-order is 0, 2, 3, 1.
        let mut t = GameTree {
            nodes: vec![
                Node {
                    props: vec![],
                    children: vec![2, 1],
                },
                Node {
                    props: vec![Property::new("B", vec!["bb".into()])],
                    children: vec![],
                },
                Node {
                    props: vec![Property::new("B", vec!["aa".into()])],
                    children: vec![3],
                },
                Node {
                    props: vec![Property::new("W", vec!["cc".into()])],
                    children: vec![],
                },
            ],
        };
        t.renumber();
        assert_eq!(t.nodes[0].children, vec![1, 3]);
        assert_eq!(t.nodes[1].value("B"), Some("aa"));
        assert_eq!(t.nodes[2].value("W"), Some("cc"));
        assert_eq!(t.nodes[3].value("B"), Some("bb"));
        assert_eq!(t.to_sgf(), "(;\n(;B[aa];W[cc])(;B[bb]))\n");
    }
}
