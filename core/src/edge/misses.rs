//! Origin "not found" answers an isolate remembers for [`MISS_TTL_MS`], so a burst of
//! requests for a provider or version that does not exist asks the origin once. Kept in
//! the isolate's memory, bounded by [`MISS_ENTRIES`], and never in the bucket: an
//! anonymous client naming made-up providers must not be able to make the mirror write.

use std::collections::HashMap;

use super::http::{expired, MISS_TTL_MS};

/// At most this many misses are remembered per isolate.
pub const MISS_ENTRIES: usize = 1024;
/// A remembered message is cut to this many bytes.
const MESSAGE_BYTES: usize = 512;

/// The remembered misses of one isolate: key → (when, the origin's message).
#[derive(Debug, Default)]
pub struct Misses {
    entries: HashMap<String, (f64, String)>,
}

impl Misses {
    /// The message of a miss of `key` remembered less than [`MISS_TTL_MS`] before `now`.
    pub fn get(&mut self, key: &str, now: f64) -> Option<String> {
        let (at, message) = self.entries.get(key)?;
        if now >= *at && !expired(*at, now, MISS_TTL_MS) {
            return Some(message.clone());
        }
        self.entries.remove(key);
        None
    }

    /// Remembers that the origin has no `key` at `now`, dropping expired entries and then
    /// the oldest when full.
    pub fn put(&mut self, key: &str, now: f64, message: &str) {
        if self.entries.len() >= MISS_ENTRIES {
            self.entries
                .retain(|_, (at, _)| now >= *at && !expired(*at, now, MISS_TTL_MS));
        }
        while self.entries.len() >= MISS_ENTRIES {
            let Some(oldest) = self
                .entries
                .iter()
                .min_by(|a, b| a.1 .0.total_cmp(&b.1 .0))
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            self.entries.remove(&oldest);
        }
        let mut end = message.len().min(MESSAGE_BYTES);
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        self.entries
            .insert(key.to_string(), (now, message[..end].to_string()));
    }

    /// How many misses are remembered.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_miss_is_remembered_for_its_ttl_only() {
        let mut m = Misses::default();
        m.put("a", 1000.0, "no such provider");
        assert_eq!(m.get("a", 1000.0).as_deref(), Some("no such provider"));
        assert_eq!(
            m.get("a", 1000.0 + MISS_TTL_MS - 1.0).as_deref(),
            Some("no such provider")
        );
        assert_eq!(m.get("a", 1000.0 + MISS_TTL_MS), None);
        assert!(m.is_empty(), "an expired miss is dropped");
        m.put("b", 1000.0, "x");
        assert_eq!(m.get("b", 999.0), None, "a clock that went backwards");
    }

    #[test]
    fn made_up_names_cannot_grow_it_past_its_cap() {
        let mut m = Misses::default();
        for i in 0..MISS_ENTRIES * 3 {
            m.put(
                &format!("h/n/t{i}/index.json"),
                i as f64,
                &"long ".repeat(1000),
            );
        }
        assert_eq!(m.len(), MISS_ENTRIES);
        let newest = format!("h/n/t{}/index.json", MISS_ENTRIES * 3 - 1);
        let kept = m.get(&newest, (MISS_ENTRIES * 3) as f64).unwrap();
        assert!(kept.len() <= MESSAGE_BYTES, "{}", kept.len());
        assert_eq!(m.get("h/n/t0/index.json", (MISS_ENTRIES * 3) as f64), None);
        // Once the old ones expired, they go first.
        m.put("late", 10.0 * MISS_TTL_MS, "é".repeat(400).as_str());
        assert_eq!(m.len(), 1);
        assert!(m.get("late", 10.0 * MISS_TTL_MS).is_some());
    }
}
