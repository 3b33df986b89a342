//! Which API keys are accepted.

use std::fmt;

use subtle::ConstantTimeEq;

/// Decides which API keys are accepted.
pub trait KeyStore: Send + Sync + 'static {
    /// True when `key` is a known key. Implementations should compare in constant time.
    fn accepts(&self, key: &str) -> bool;
}

/// A fixed set of keys, compared in constant time: every key is compared over the same
/// number of bytes (the longest key's length, rounded up to 8), whatever matches, so neither
/// a key's content nor its length shows in the time an answer takes.
#[derive(Clone)]
pub struct StaticKeys {
    /// Each key zero-padded to the longest one, as 8-byte words, with its length.
    keys: Vec<(Box<[u64]>, u64)>,
    /// Words per key.
    width: usize,
}

impl StaticKeys {
    /// The set of `keys`.
    pub fn new<K: AsRef<str>>(keys: impl IntoIterator<Item = K>) -> Self {
        let keys: Vec<Vec<u8>> = keys
            .into_iter()
            .map(|k| k.as_ref().as_bytes().to_vec())
            .collect();
        let width = keys.iter().map(Vec::len).max().unwrap_or(0).div_ceil(8);
        Self {
            keys: keys
                .iter()
                .map(|k| (words(k, width).collect(), k.len() as u64))
                .collect(),
            width,
        }
    }

    /// How many keys are accepted.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when no key is accepted.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

impl fmt::Debug for StaticKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StaticKeys({} keys)", self.keys.len())
    }
}

impl KeyStore for StaticKeys {
    fn accepts(&self, key: &str) -> bool {
        let given = key.as_bytes();
        let mut found = subtle::Choice::from(0);
        for (padded, len) in &self.keys {
            let mut same = len.ct_eq(&(given.len() as u64));
            for (word, given) in padded.iter().zip(words(given, self.width)) {
                same &= word.ct_eq(&given);
            }
            found |= same;
        }
        found.into()
    }
}

/// `bytes` as `width` 8-byte words, zero-padded (bytes past `width` words are ignored; the
/// length comparison catches a longer key).
fn words(bytes: &[u8], width: usize) -> impl Iterator<Item = u64> + '_ {
    (0..width).map(move |i| {
        let mut word = [0u8; 8];
        let chunk = bytes.get(i * 8..).unwrap_or_default();
        let n = chunk.len().min(8);
        word[..n].copy_from_slice(&chunk[..n]);
        u64::from_le_bytes(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_keys_only() {
        let keys = StaticKeys::new(["short", "a-much-longer-key"]);
        assert!(keys.accepts("short") && keys.accepts("a-much-longer-key"));
        for wrong in [
            "",
            "shor",
            "short\0\0\0",
            "a-much-longer-key\0\0\0\0\0\0\0",
            "short\0",
            "shorter",
            "a-much-longer-ke",
            "a-much-longer-key!",
        ] {
            assert!(!keys.accepts(wrong), "{wrong:?}");
        }
        assert!(!StaticKeys::new(Vec::<String>::new()).accepts(""));
        assert_eq!(format!("{keys:?}"), "StaticKeys(2 keys)");
    }
}
