//! Documents an isolate read recently, kept in its memory for a moment so that a burst of
//! hits on one `<version>.json` (every `init` of a team asks for the same few) costs one
//! R2 read, not one per request.
//!
//! A kept copy can be at most [`HOT_MS`] older than the bucket when another isolate wrote
//! since; documents are already served with `max-age=60`, so clients accept far more. The
//! isolate's own writes [`forget`](HotDocuments::forget) the key, so within one isolate a
//! write is visible at once. Memory is bounded by entry count and bytes.

use std::collections::HashMap;

/// How long a document read from the bucket is served from memory.
pub const HOT_MS: f64 = 1000.0;
/// At most this many documents are kept.
pub const HOT_ENTRIES: usize = 256;
/// At most this many document bytes are kept.
pub const HOT_BYTES: usize = 4 << 20;

/// The kept documents of one isolate; `V` is the host's stored object.
#[derive(Debug)]
pub struct HotDocuments<V> {
    entries: HashMap<String, Entry<V>>,
    bytes: usize,
}

#[derive(Debug)]
struct Entry<V> {
    read_at: f64,
    size: usize,
    value: V,
}

impl<V> Default for HotDocuments<V> {
    fn default() -> Self {
        HotDocuments {
            entries: HashMap::new(),
            bytes: 0,
        }
    }
}

impl<V: Clone> HotDocuments<V> {
    /// The copy of `key` read less than [`HOT_MS`] before `now`, if any.
    pub fn get(&mut self, key: &str, now: f64) -> Option<V> {
        let entry = self.entries.get(key)?;
        if now - entry.read_at < HOT_MS && now >= entry.read_at {
            return Some(entry.value.clone());
        }
        self.forget(key);
        None
    }

    /// Keeps `value` (of `size` bytes) read from the bucket at `now`; documents larger than
    /// the whole budget are not kept.
    pub fn put(&mut self, key: &str, now: f64, size: usize, value: V) {
        self.forget(key);
        if size > HOT_BYTES {
            return;
        }
        self.entries.retain(|_, e| now - e.read_at < HOT_MS);
        self.bytes = self.entries.values().map(|e| e.size).sum();
        while self.entries.len() >= HOT_ENTRIES || self.bytes + size > HOT_BYTES {
            let Some(oldest) = self
                .entries
                .iter()
                .min_by(|a, b| a.1.read_at.total_cmp(&b.1.read_at))
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            self.forget(&oldest);
        }
        self.bytes += size;
        self.entries.insert(
            key.to_string(),
            Entry {
                read_at: now,
                size,
                value,
            },
        );
    }

    /// Drops the copy of `key` (this isolate wrote it, or it expired).
    pub fn forget(&mut self, key: &str) {
        if let Some(e) = self.entries.remove(key) {
            self.bytes -= e.size;
        }
    }

    /// How many bytes the kept documents hold.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_served_until_hot_ms_has_passed() {
        let mut hot = HotDocuments::default();
        hot.put("a", 1000.0, 3, "abc");
        assert_eq!(hot.get("a", 1000.0), Some("abc"));
        assert_eq!(hot.get("a", 1000.0 + HOT_MS - 1.0), Some("abc"));
        assert_eq!(hot.get("a", 1000.0 + HOT_MS), None);
        assert_eq!(hot.bytes(), 0, "an expired copy is dropped");
    }

    #[test]
    fn a_clock_that_went_backwards_does_not_serve_the_copy() {
        let mut hot = HotDocuments::default();
        hot.put("a", 1000.0, 1, 1);
        assert_eq!(hot.get("a", 999.0), None);
    }

    #[test]
    fn forgetting_a_written_key_makes_the_next_read_go_to_the_bucket() {
        let mut hot = HotDocuments::default();
        hot.put("a", 0.0, 1, 1);
        hot.put("b", 0.0, 1, 2);
        hot.forget("a");
        assert_eq!(hot.get("a", 1.0), None);
        assert_eq!(hot.get("b", 1.0), Some(2));
    }

    #[test]
    fn the_entry_count_is_bounded_by_dropping_the_oldest() {
        let mut hot = HotDocuments::default();
        for i in 0..=HOT_ENTRIES {
            hot.put(&format!("k{i}"), i as f64 / 1000.0, 1, i);
        }
        assert_eq!(hot.get("k0", 0.5), None, "the oldest was dropped");
        assert_eq!(hot.get(&format!("k{HOT_ENTRIES}"), 0.5), Some(HOT_ENTRIES));
        assert_eq!(hot.bytes(), HOT_ENTRIES);
    }

    #[test]
    fn the_byte_budget_is_kept_and_oversized_documents_are_not_kept() {
        let mut hot = HotDocuments::default();
        hot.put("big", 0.0, HOT_BYTES + 1, 0);
        assert_eq!(hot.get("big", 0.0), None);
        hot.put("half1", 0.0, HOT_BYTES / 2, 1);
        hot.put("half2", 1.0, HOT_BYTES / 2, 2);
        hot.put("more", 2.0, 10, 3);
        assert_eq!(hot.get("half1", 3.0), None);
        assert_eq!(hot.get("half2", 3.0), Some(2));
        assert_eq!(hot.get("more", 3.0), Some(3));
        assert!(hot.bytes() <= HOT_BYTES);
    }

    #[test]
    fn replacing_a_key_counts_its_bytes_once() {
        let mut hot = HotDocuments::default();
        hot.put("a", 0.0, 10, 1);
        hot.put("a", 1.0, 20, 2);
        assert_eq!(hot.bytes(), 20);
        assert_eq!(hot.get("a", 2.0), Some(2));
    }
}
