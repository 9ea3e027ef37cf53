//! `--set` as pkg/strvals parses it: `a.b=c,d=e`, list items `a[0]=x`, lists `a={x,y}`,
//! backslash escapes, and typed values (true/false/null, int64 without a leading zero).

use serde_json::{Map, Value};

/// Deepest `a.b.c…` a key may nest (strvals' MaxNestedNameLevel).
const MAX_NESTED_NAME_LEVEL: usize = 30;
/// Largest list index (strvals' MaxIndex).
const MAX_INDEX: i64 = 65536;

/// Parses one `--set` value into `data`; strvals' own wording when it cannot.
pub fn parse_into(text: &str, data: &mut Map<String, Value>) -> Result<(), String> {
    let mut scanner = Scanner { chars: text.chars().collect(), at: 0 };
    while scanner.at < scanner.chars.len() {
        scanner.key(data, 0)?;
    }
    Ok(())
}

struct Scanner {
    chars: Vec<char>,
    at: usize,
}

impl Scanner {
    /// Characters up to one of `stop` (a backslash escapes the next), and the stop found.
    fn until(&mut self, stop: &[char]) -> (String, Option<char>) {
        let mut text = String::new();
        while let Some(&c) = self.chars.get(self.at) {
            self.at += 1;
            if c == '\\' {
                if let Some(&next) = self.chars.get(self.at) {
                    self.at += 1;
                    text.push(next);
                }
                continue;
            }
            if stop.contains(&c) {
                return (text, Some(c));
            }
            text.push(c);
        }
        (text, None)
    }

    fn key(&mut self, data: &mut Map<String, Value>, level: usize) -> Result<(), String> {
        let (key, last) = self.until(&['=', '[', ',', '.']);
        match last {
            None if key.is_empty() => Ok(()),
            None => Err(format!("key \"{key}\" has no value")),
            Some('[') => {
                let index = self.index()?;
                let list = match data.remove(&key) {
                    Some(Value::Array(items)) => items,
                    _ => Vec::new(),
                };
                let list = self.list_item(list, index, level)?;
                data.insert(key, Value::Array(list));
                Ok(())
            }
            Some('=') => {
                let value = self.value()?;
                data.insert(key, value);
                Ok(())
            }
            Some(',') => Err(format!("key \"{key}\" has no value (cannot end with ,)")),
            _ => {
                if level + 1 > MAX_NESTED_NAME_LEVEL {
                    return Err(format!(
                        "value name nested level is greater than maximum supported nested level of {MAX_NESTED_NAME_LEVEL}"
                    ));
                }
                let mut inner = match data.remove(&key) {
                    Some(Value::Object(map)) => map,
                    _ => Map::new(),
                };
                let result = self.key(&mut inner, level + 1);
                if result.is_ok() && inner.is_empty() {
                    return Err(format!("key map \"{key}\" has no value"));
                }
                if !inner.is_empty() {
                    data.insert(key, Value::Object(inner));
                }
                result
            }
        }
    }

    fn index(&mut self) -> Result<usize, String> {
        let (text, _) = self.until(&[']']);
        let index: i64 =
            text.parse().map_err(|_| format!("error parsing index: strconv.Atoi: parsing {text:?}: invalid syntax"))?;
        if index < 0 {
            return Err(format!("error parsing index: negative {index} index not allowed"));
        }
        if index > MAX_INDEX {
            return Err(format!(
                "error parsing index: index of {index} is greater than maximum supported index {MAX_INDEX}"
            ));
        }
        Ok(index as usize)
    }

    fn list_item(&mut self, mut list: Vec<Value>, index: usize, level: usize) -> Result<Vec<Value>, String> {
        if list.len() <= index {
            list.resize(index + 1, Value::Null);
        }
        match self.chars.get(self.at).copied() {
            Some('=') => {
                self.at += 1;
                list[index] = self.value()?;
            }
            Some('.') => {
                self.at += 1;
                let mut inner = match std::mem::take(&mut list[index]) {
                    Value::Object(map) => map,
                    _ => Map::new(),
                };
                self.key(&mut inner, level)?;
                list[index] = Value::Object(inner);
            }
            Some('[') => {
                self.at += 1;
                let inner_index = self.index()?;
                let inner = match std::mem::take(&mut list[index]) {
                    Value::Array(items) => items,
                    _ => Vec::new(),
                };
                list[index] = Value::Array(self.list_item(inner, inner_index, level)?);
            }
            _ => return Err("parse error: unexpected data at end of array index".into()),
        }
        Ok(list)
    }

    /// After `=`: `{a,b}` as a list, else one value up to the next comma.
    fn value(&mut self) -> Result<Value, String> {
        if self.chars.get(self.at) == Some(&'{') {
            self.at += 1;
            let mut items = Vec::new();
            loop {
                let (text, last) = self.until(&[',', '}']);
                items.push(typed(&text));
                match last {
                    Some(',') => continue,
                    Some('}') => break,
                    _ => return Err("list must terminate with '}'".into()),
                }
            }
            return match self.chars.get(self.at) {
                None => Ok(Value::Array(items)),
                Some(',') => {
                    self.at += 1;
                    Ok(Value::Array(items))
                }
                Some(c) => Err(format!("list must be followed by a comma or end of input, not {c:?}")),
            };
        }
        let (text, _) = self.until(&[',']);
        Ok(typed(&text))
    }
}

/// strvals' `typedVal`.
fn typed(text: &str) -> Value {
    if text.eq_ignore_ascii_case("true") {
        return Value::Bool(true);
    }
    if text.eq_ignore_ascii_case("false") {
        return Value::Bool(false);
    }
    if text.eq_ignore_ascii_case("null") {
        return Value::Null;
    }
    if text == "0" {
        return Value::from(0i64);
    }
    if !text.is_empty()
        && !text.starts_with('0')
        && let Ok(i) = text.parse::<i64>()
    {
        return Value::from(i);
    }
    Value::String(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn set(text: &str) -> Result<Value, String> {
        let mut data = Map::new();
        parse_into(text, &mut data).map(|_| Value::Object(data))
    }

    #[test]
    fn keys_lists_and_types() {
        assert_eq!(set("replicaCount=3,image.tag=1.27").unwrap(), json!({"replicaCount": 3, "image": {"tag": "1.27"}}));
        assert_eq!(
            set("a[1]=x,b={80,443},c=true,d=007,e=null").unwrap(),
            json!({"a": [null, "x"], "b": [80, 443], "c": true, "d": "007", "e": null})
        );
        assert_eq!(set("name=a\\,b").unwrap(), json!({"name": "a,b"}));
        assert_eq!(set("ports[0].port=80").unwrap(), json!({"ports": [{"port": 80}]}));
    }

    #[test]
    fn malformed_values_are_worded_as_strvals() {
        assert_eq!(set("replicaCount").unwrap_err(), "key \"replicaCount\" has no value");
        assert_eq!(set("a,b=1").unwrap_err(), "key \"a\" has no value (cannot end with ,)");
    }
}
