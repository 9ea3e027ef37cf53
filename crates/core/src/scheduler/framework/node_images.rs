//! The images a node has, as ImageLocality sees them: the ids of the images its pods use, each
//! with how many of its pods use it. The usual few are kept inline, so scoring a node reads no
//! memory beside the node's own. Mirrors NodeInfo's `ImageStates` (framework/types.go).

/// Images kept inline; more spill to the heap.
const INLINE: usize = 4;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeImages {
    /// `(image id, pods using it)`; the first `len` are in use.
    inline: [(u32, u32); INLINE],
    len: u8,
    /// Entries beyond the inline ones (only when the inline ones are all in use).
    spill: Vec<(u32, u32)>,
}

impl NodeImages {
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn contains(&self, id: u32) -> bool {
        self.inline[..usize::from(self.len)].iter().any(|(i, _)| *i == id) || self.spill.iter().any(|(i, _)| *i == id)
    }

    /// Every image id, each once.
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.inline[..usize::from(self.len)].iter().chain(&self.spill).map(|(id, _)| *id)
    }

    /// One more pod uses `id`; true when the node did not have the image before.
    pub fn add(&mut self, id: u32) -> bool {
        if let Some(entry) = self.entry_mut(id) {
            entry.1 += 1;
            return false;
        }
        if usize::from(self.len) < INLINE {
            self.inline[usize::from(self.len)] = (id, 1);
            self.len += 1;
        } else {
            self.spill.push((id, 1));
        }
        true
    }

    /// One pod fewer uses `id`; true when no pod on the node uses it any more.
    pub fn remove(&mut self, id: u32) -> bool {
        let Some(entry) = self.entry_mut(id) else { return false };
        entry.1 -= 1;
        if entry.1 > 0 {
            return false;
        }
        if let Some(i) = self.spill.iter().position(|(i, _)| *i == id) {
            self.spill.swap_remove(i);
            return true;
        }
        let len = usize::from(self.len);
        if let Some(i) = self.inline[..len].iter().position(|(i, _)| *i == id) {
            self.inline[i] = self.inline[len - 1];
            match self.spill.pop() {
                Some(moved) => self.inline[len - 1] = moved,
                None => self.len -= 1,
            }
        }
        true
    }

    fn entry_mut(&mut self, id: u32) -> Option<&mut (u32, u32)> {
        let len = usize::from(self.len);
        self.inline[..len].iter_mut().chain(self.spill.iter_mut()).find(|(i, _)| *i == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_past_the_inline_ones_spill_and_come_back() {
        let mut images = NodeImages::default();
        for id in 0..6 {
            assert!(images.add(id));
        }
        assert!(!images.add(5), "a second pod with the image");
        assert!(images.remove(1), "the only pod using image 1 left");
        assert!(!images.remove(5));
        assert!((0..6).all(|id| images.contains(id) == (id != 1)));
        let mut ids: Vec<u32> = images.ids().collect();
        ids.sort();
        assert_eq!(ids, [0, 2, 3, 4, 5]);
        for id in [0, 2, 3, 4, 5] {
            assert!(images.remove(id));
        }
        assert!(images.is_empty() && !images.contains(5));
    }
}
