//! Two automata run side by side over valid UTF-8, breadth first: the shortest text one
//! matches and the other does not (what decides whether one pattern's texts are among
//! another's, and finds a text a pattern refuses).

use std::collections::{HashMap, HashSet, VecDeque};

use mrds_runtime::Automaton;

/// The most states the product of two patterns may have before the question is given up.
const MAX_STATES: usize = 200_000;

/// Where a UTF-8 decoder stands: how many continuation bytes it still needs, and the range
/// the next one must fall in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Utf8 {
    need: u8,
    lo: u8,
    hi: u8,
}

impl Utf8 {
    const BOUNDARY: Utf8 = Utf8 {
        need: 0,
        lo: 0,
        hi: 0,
    };

    /// After `byte`, or `None` when the text would not be valid UTF-8.
    fn step(self, byte: u8) -> Option<Utf8> {
        let next = |need, lo, hi| Some(Utf8 { need, lo, hi });
        if self.need > 0 {
            return if !(self.lo..=self.hi).contains(&byte) {
                None
            } else if self.need == 1 {
                Some(Utf8::BOUNDARY)
            } else {
                next(self.need - 1, 0x80, 0xBF)
            };
        }
        match byte {
            0x00..=0x7F => Some(Utf8::BOUNDARY),
            0xC2..=0xDF => next(1, 0x80, 0xBF),
            0xE0 => next(2, 0xA0, 0xBF),
            0xE1..=0xEC | 0xEE..=0xEF => next(2, 0x80, 0xBF),
            0xED => next(2, 0x80, 0x9F),
            0xF0 => next(3, 0x90, 0xBF),
            0xF1..=0xF3 => next(3, 0x80, 0xBF),
            0xF4 => next(3, 0x80, 0x8F),
            _ => None,
        }
    }
}

/// Bytes the UTF-8 decoder cannot tell apart.
fn utf8_class(byte: u8) -> u8 {
    match byte {
        0x00..=0x7F => 0,
        0x80..=0x8F => 1,
        0x90..=0x9F => 2,
        0xA0..=0xBF => 3,
        0xC0..=0xC1 => 4,
        0xC2..=0xDF => 5,
        0xE0 => 6,
        0xE1..=0xEC => 7,
        0xED => 8,
        0xEE..=0xEF => 9,
        0xF0 => 10,
        0xF1..=0xF3 => 11,
        0xF4 => 12,
        0xF5..=0xFF => 13,
    }
}

/// The order bytes are tried in, so witnesses read well: letters, digits, other printable
/// ASCII, space, control characters, then the bytes of longer UTF-8 sequences.
fn byte_preference() -> Vec<u8> {
    let mut out: Vec<u8> = (b'A'..=b'Z')
        .chain(b'a'..=b'z')
        .chain(b'0'..=b'9')
        .collect();
    out.extend((0x21..=0x7E).filter(|b: &u8| !b.is_ascii_alphanumeric()));
    out.push(b' ');
    out.extend((0x00..0x20).chain([0x7F]));
    out.extend(0x80..=0xFF);
    out
}

/// One state of the two automata run side by side; `*_matched` is set once one has seen a
/// match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Node {
    a: usize,
    a_matched: bool,
    b: usize,
    b_matched: bool,
    utf8: Utf8,
}

pub(super) struct Product<'t> {
    a: Automaton<'t>,
    b: Automaton<'t>,
    /// One byte of each class the two automata and the UTF-8 decoder can tell apart.
    bytes: Vec<u8>,
}

impl<'t> Product<'t> {
    /// The two automata side by side, over texts of the bytes `only` allows (every byte when
    /// `None`).
    pub(super) fn new(a: Automaton<'t>, b: Automaton<'t>, only: Option<fn(u8) -> bool>) -> Self {
        let mut seen = HashSet::new();
        let bytes = byte_preference()
            .into_iter()
            .filter(|&byte| only.is_none_or(|allowed| allowed(byte)))
            .filter(|&byte| seen.insert((a.class(byte), b.class(byte), utf8_class(byte))))
            .collect();
        Self { a, b, bytes }
    }

    /// True when the text read so far matches (a match seen, or one ending at its end).
    fn accepts(dfa: &Automaton<'_>, state: usize, matched: bool) -> bool {
        matched || dfa.is_match_state(dfa.next_end(state))
    }

    /// The shortest valid text `a` matches and `b` does not, if there is one.
    pub(super) fn search(&self) -> Result<Option<String>, String> {
        let root = Node {
            a: self.a.start(),
            a_matched: false,
            b: self.b.start(),
            b_matched: false,
            utf8: Utf8::BOUNDARY,
        };
        let mut parent: HashMap<Node, Option<(Node, u8)>> = HashMap::from([(root, None)]);
        let mut queue = VecDeque::from([root]);
        // The empty text is a poor example: it is kept only when no other text tells the two
        // apart.
        let mut empty = false;
        while let Some(node) = queue.pop_front() {
            if node.utf8 == Utf8::BOUNDARY
                && Self::accepts(&self.a, node.a, node.a_matched)
                && !Self::accepts(&self.b, node.b, node.b_matched)
            {
                if node != root {
                    return Ok(Some(Self::path(&parent, node)));
                }
                empty = true;
            }
            for &byte in &self.bytes {
                let Some(utf8) = node.utf8.step(byte) else {
                    continue;
                };
                let next = self.step(node, byte, utf8);
                // `b` matched: every longer text matches it too. `a` dead without a match:
                // no longer text matches it.
                if next.b_matched || (!next.a_matched && self.a.is_dead_state(next.a)) {
                    continue;
                }
                if parent.contains_key(&next) {
                    continue;
                }
                if parent.len() >= MAX_STATES {
                    return Err("too many states to compare".into());
                }
                parent.insert(next, Some((node, byte)));
                queue.push_back(next);
            }
        }
        Ok(empty.then(String::new))
    }

    /// The node after `byte`: a match entered on a byte that starts a character (or is
    /// ASCII) ended before it, on a character boundary, as the runtime counts it.
    fn step(&self, node: Node, byte: u8, utf8: Utf8) -> Node {
        let boundary = node.utf8 == Utf8::BOUNDARY;
        let (a, a_matched) = if node.a_matched {
            (node.a, true)
        } else {
            let a = self.a.next(node.a, byte);
            (a, boundary && self.a.is_match_state(a))
        };
        let b = self.b.next(node.b, byte);
        Node {
            a,
            a_matched,
            b,
            b_matched: node.b_matched || (boundary && self.b.is_match_state(b)),
            utf8,
        }
    }

    fn path(parent: &HashMap<Node, Option<(Node, u8)>>, mut node: Node) -> String {
        let mut bytes = Vec::new();
        while let Some(Some((prev, byte))) = parent.get(&node) {
            bytes.push(*byte);
            node = *prev;
        }
        bytes.reverse();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}
