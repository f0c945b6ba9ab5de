//! The host-facing side of the planner: requests to hand out, the ones outstanding and who
//! asked them, and the progress lines for live display.

use crate::addrs::Provider;
use crate::collections::SortedMap;
use crate::install::needs::{Need, NeedId, Request};
use std::collections::VecDeque;

/// What the planner has asked and said.
#[derive(Debug, Default)]
pub(super) struct Outbox {
    next_id: u32,
    queue: VecDeque<Request>,
    pending: SortedMap<NeedId, Asked>,
    progress: Vec<String>,
}

/// Who asked an outstanding request, and about what.
#[derive(Debug, Clone)]
pub(super) struct Asked {
    /// The provider whose phase waits for the answer.
    pub provider: Provider,
    /// What about it.
    pub about: About,
}

/// What a request is about within its provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum About {
    /// The versions the source offers.
    Versions,
    /// The package for the target platform with this index.
    Platform(usize),
}

impl Outbox {
    /// Queues `need` for the host on behalf of `provider`.
    pub fn ask(&mut self, provider: &Provider, about: About, need: Need) {
        let id = NeedId(self.next_id);
        self.next_id += 1;
        let asked = Asked {
            provider: provider.clone(),
            about,
        };
        self.pending.insert(id, asked);
        self.queue.push_back(Request { id, need });
    }

    /// Adds a progress line.
    pub fn say(&mut self, line: String) {
        self.progress.push(line);
    }

    /// The next queued request.
    pub fn next(&mut self) -> Option<Request> {
        self.queue.pop_front()
    }

    /// Every queued request.
    pub fn take_requests(&mut self) -> Vec<Request> {
        self.queue.drain(..).collect()
    }

    /// True when nothing is queued or outstanding.
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.pending.is_empty()
    }

    /// Progress lines since the last call.
    pub fn drain_progress(&mut self) -> Vec<String> {
        std::mem::take(&mut self.progress)
    }

    /// Who asked request `id`, while it is outstanding.
    pub fn asked(&self, id: NeedId) -> Option<&Asked> {
        self.pending.get(&id)
    }

    /// Marks request `id` answered.
    pub fn settle(&mut self, id: NeedId) {
        self.pending.remove(&id);
    }

    /// How many requests are outstanding.
    pub fn outstanding(&self) -> usize {
        self.pending.len()
    }
}
