//! YAML 1.1's booleans, as kubectl reads manifests: sigs.k8s.io/yaml converts YAML to JSON
//! with go-yaml v2, for which a plain (unquoted) `y`, `yes`, `on` is true and `n`, `no`, `off`
//! is false, while serde_yaml reads YAML 1.2, where they are strings. An unquoted `yes` in a
//! string field is then refused as kubectl refuses it (`cannot unmarshal bool into Go struct
//! field … of type string`), and `"yes"` stays a string. serde_yaml still parses the document
//! (its errors are libyaml's, as go-yaml's are); this finds where YAML 1.1 reads a boolean.

use serde_json::Value;
use yaml_rust2::parser::{Event, EventReceiver, Parser};
use yaml_rust2::scanner::TScalarStyle;

/// One step into a JSON value: a mapping's key or a sequence's index.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// The value YAML 1.1 gives a plain scalar that YAML 1.2 reads as a string.
fn boolean(plain: &str) -> Option<bool> {
    match plain {
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(true),
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(false),
        _ => None,
    }
}

/// Turns the strings that YAML 1.1 reads as booleans into booleans, in `value` (the JSON that
/// serde_yaml made of `document`). Keys stay strings (sigs.k8s.io/yaml turns a boolean key
/// back into text, though `true` rather than `yes`: too rare to follow).
pub fn apply_booleans(document: &str, value: &mut Value) {
    let mut finder = Finder::default();
    if Parser::new_from_str(document).load(&mut finder, false).is_err() {
        return;
    }
    for (path, boolean) in finder.found {
        if let Some(at) = lookup(value, &path)
            && at.is_string()
        {
            *at = Value::Bool(boolean);
        }
    }
}

fn lookup<'a>(value: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |at, step| match step {
        Step::Key(key) => at.get_mut(key.as_str()),
        Step::Index(index) => at.get_mut(*index),
    })
}

/// A mapping or sequence being read, and whether its place has a name (a container that is a
/// key, or inside one, has none: nothing in it is converted).
#[derive(Debug)]
struct Frame {
    shape: Shape,
    named: bool,
}

#[derive(Debug)]
enum Shape {
    /// Waiting for a key, or (after one) for its value: `Some(key)`, or `None` for a key
    /// that was not plain text.
    Mapping {
        value_of: Option<Option<String>>,
    },
    Sequence {
        next: usize,
    },
}

/// Where a node being read sits.
enum Place {
    Key,
    Value(Option<Step>),
    Unnamed,
}

#[derive(Default)]
struct Finder {
    frames: Vec<Frame>,
    path: Vec<Step>,
    found: Vec<(Vec<Step>, bool)>,
}

impl Finder {
    fn place(&self) -> Place {
        let Some(frame) = self.frames.last() else { return Place::Value(None) };
        match (&frame.shape, frame.named) {
            (Shape::Mapping { value_of: None }, _) => Place::Key,
            (_, false) | (Shape::Mapping { value_of: Some(None) }, _) => Place::Unnamed,
            (Shape::Mapping { value_of: Some(Some(key)) }, true) => Place::Value(Some(Step::Key(key.clone()))),
            (Shape::Sequence { next }, true) => Place::Value(Some(Step::Index(*next))),
        }
    }

    /// A node ended in the current container: a key (with its text when plain) now waits for
    /// its value, a value lets the mapping wait for its next key, a sequence moves on.
    fn node_done(&mut self, key_text: Option<String>) {
        let Some(frame) = self.frames.last_mut() else { return };
        match &mut frame.shape {
            Shape::Mapping { value_of } => *value_of = if value_of.is_none() { Some(key_text) } else { None },
            Shape::Sequence { next } => *next += 1,
        }
    }

    fn scalar(&mut self, text: String, style: TScalarStyle) {
        match self.place() {
            Place::Key => return self.node_done(Some(text)),
            Place::Value(step) => {
                if let (TScalarStyle::Plain, Some(boolean)) = (style, boolean(&text)) {
                    let mut path = self.path.clone();
                    path.extend(step);
                    self.found.push((path, boolean));
                }
            }
            Place::Unnamed => {}
        }
        self.node_done(None);
    }

    fn open(&mut self, shape: Shape) {
        let named = match self.place() {
            Place::Value(step) => {
                self.path.extend(step);
                true
            }
            Place::Key | Place::Unnamed => false,
        };
        self.frames.push(Frame { shape, named });
    }

    fn close(&mut self) {
        let Some(frame) = self.frames.pop() else { return };
        if frame.named && !self.frames.is_empty() {
            self.path.pop();
        }
        self.node_done(None);
    }
}

impl EventReceiver for Finder {
    fn on_event(&mut self, event: Event) {
        match event {
            Event::Scalar(text, style, ..) => self.scalar(text, style),
            Event::MappingStart(..) => self.open(Shape::Mapping { value_of: None }),
            Event::SequenceStart(..) => self.open(Shape::Sequence { next: 0 }),
            Event::MappingEnd | Event::SequenceEnd => self.close(),
            // An alias takes a node's place and converts nothing.
            Event::Alias(_) => self.node_done(None),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(document: &str) -> Value {
        let yaml: serde_yaml::Value = serde_yaml::from_str(document).unwrap();
        let mut value = crate::manifest::yaml_to_json(yaml).unwrap();
        apply_booleans(document, &mut value);
        value
    }

    #[test]
    fn plain_yes_and_off_are_booleans_and_quoted_ones_stay_strings() {
        let document =
            "a: yes\nb: \"yes\"\nc: 'off'\nd: off\ne: [on, \"on\", No]\nf:\n  g: y\n  h: [{i: N}]\nj: yesterday\n";
        assert_eq!(
            read(document),
            json!({"a": true, "b": "yes", "c": "off", "d": false, "e": [true, "on", false],
                   "f": {"g": true, "h": [{"i": false}]}, "j": "yesterday"})
        );
    }

    #[test]
    fn keys_and_odd_places_are_left_as_they_are() {
        assert_eq!(read("yes: 1\non: off\n"), json!({"yes": 1, "on": false}));
        let with_alias = "base: &b {x: 1}\nother: *b\nafter: no\n";
        assert_eq!(read(with_alias), json!({"base": {"x": 1}, "other": {"x": 1}, "after": false}));
        assert_eq!(read("- yes\n- - no\n"), json!([true, [false]]));
    }
}
