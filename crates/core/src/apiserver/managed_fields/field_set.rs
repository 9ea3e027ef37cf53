//! A set of field paths (structured-merge-diff's `fieldpath.Set`) kept as a tree keyed by
//! path elements, and its `fieldsV1` JSON form: keys sorted, a leaf `{}`, and `.` when a
//! path is a member and also has members below it.

use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldSet {
    /// Whether the path leading here is itself in the set (unused at the root).
    pub(super) member: bool,
    pub(super) children: BTreeMap<String, FieldSet>,
}

impl FieldSet {
    pub fn is_empty(&self) -> bool {
        !self.member && self.children.is_empty()
    }

    /// Adds `path` (an empty path adds nothing, as upstream's `Insert`).
    pub fn insert(&mut self, path: &[String]) {
        let Some((first, rest)) = path.split_first() else { return };
        let child = self.children.entry(first.clone()).or_default();
        if rest.is_empty() {
            child.member = true;
        } else {
            child.insert(rest);
        }
    }

    pub fn union(&self, other: &FieldSet) -> FieldSet {
        let mut out = self.clone();
        out.member |= other.member;
        for (element, theirs) in &other.children {
            let merged = match out.children.get(element) {
                Some(ours) => ours.union(theirs),
                None => theirs.clone(),
            };
            out.children.insert(element.clone(), merged);
        }
        out
    }

    pub fn difference(&self, other: &FieldSet) -> FieldSet {
        let mut out = FieldSet { member: self.member && !other.member, children: BTreeMap::new() };
        for (element, ours) in &self.children {
            let left = match other.children.get(element) {
                Some(theirs) => ours.difference(theirs),
                None => ours.clone(),
            };
            if !left.is_empty() {
                out.children.insert(element.clone(), left);
            }
        }
        out
    }

    pub fn intersection(&self, other: &FieldSet) -> FieldSet {
        let mut out = FieldSet { member: self.member && other.member, children: BTreeMap::new() };
        for (element, ours) in &self.children {
            if let Some(theirs) = other.children.get(element) {
                let both = ours.intersection(theirs);
                if !both.is_empty() {
                    out.children.insert(element.clone(), both);
                }
            }
        }
        out
    }

    /// The set less the subtree at `element` (a whole top-level field: `f:status`).
    pub fn without_child(mut self, element: &str) -> FieldSet {
        self.children.remove(element);
        self
    }

    /// The set without `path` itself as a member (its members below stay).
    pub fn without_member(mut self, path: &[String]) -> FieldSet {
        self.remove_member(path);
        self
    }

    fn remove_member(&mut self, path: &[String]) {
        let Some((first, rest)) = path.split_first() else { return };
        let Some(child) = self.children.get_mut(first) else { return };
        if rest.is_empty() {
            child.member = false;
        } else {
            child.remove_member(rest);
        }
        if child.is_empty() {
            self.children.remove(first);
        }
    }

    /// Whether `path` or anything below it is in the set.
    pub fn has_at_or_below(&self, path: &[String]) -> bool {
        match path.split_first() {
            None => !self.is_empty(),
            Some((first, rest)) => self.children.get(first).is_some_and(|child| child.has_at_or_below(rest)),
        }
    }

    /// Every member, in upstream's `Iterate` order: this level's members, then each child's.
    pub fn members(&self) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        self.collect(&mut Vec::new(), &mut out);
        out
    }

    fn collect(&self, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        for (element, child) in &self.children {
            if child.member {
                let mut path = prefix.clone();
                path.push(element.clone());
                out.push(path);
            }
        }
        for (element, child) in &self.children {
            prefix.push(element.clone());
            child.collect(prefix, out);
            prefix.pop();
        }
    }
}
