//! `images:` (builtins/ImageTagTransformer, filters/imagetag): every `image` of every
//! `containers`/`initContainers` list anywhere in an object (the legacy filter) whose name is
//! the entry's `name` gets its `newName`, `newTag`, `digest` and `tagSuffix`.

use super::Resource;
use super::kustomization::Image;
use serde_json::Value;

pub fn apply(images: &[Image], resources: &mut [Resource]) {
    for image in images {
        for resource in resources.iter_mut() {
            walk(&mut resource.object, image);
        }
    }
}

/// imagetag.LegacyFilter: finds container lists at any depth.
fn walk(value: &mut Value, rule: &Image) {
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                if matches!(key.as_str(), "containers" | "initContainers")
                    && let Value::Array(containers) = child
                {
                    for container in containers.iter_mut() {
                        if let Some(Value::String(image)) = container.get_mut("image")
                            && let Some(updated) = update(image, rule)
                        {
                            *image = updated;
                        }
                    }
                }
                walk(child, rule);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| walk(item, rule)),
        _ => {}
    }
}

/// imagetag updater `SetImageValue`: a new tag or digest replaces both the old tag and digest.
fn update(image: &str, rule: &Image) -> Option<String> {
    let (name, tag, digest) = split(image);
    if name != rule.name {
        return None;
    }
    let mut name = if rule.new_name.is_empty() { name.to_string() } else { rule.new_name.clone() };
    let (mut tag, digest) = match (rule.new_tag.as_str(), rule.digest.as_str()) {
        ("", "") => (tag.to_string(), digest.to_string()),
        (new_tag, "") => (new_tag.to_string(), String::new()),
        ("", new_digest) => (String::new(), new_digest.to_string()),
        (new_tag, new_digest) => (new_tag.to_string(), new_digest.to_string()),
    };
    tag.push_str(&rule.tag_suffix);
    if !tag.is_empty() {
        name = format!("{name}:{tag}");
    }
    if !digest.is_empty() {
        name = format!("{name}@{digest}");
    }
    Some(name)
}

/// image.Split: `registry:5000/app:1.2@sha256:…` → (`registry:5000/app`, `1.2`, `sha256:…`).
pub fn split(image: &str) -> (&str, &str, &str) {
    let (rest, digest) = image.split_once('@').unwrap_or((image, ""));
    let last_slash = rest.rfind('/').map_or(0, |i| i + 1);
    match rest[last_slash..].find(':') {
        Some(at) => (&rest[..last_slash + at], &rest[last_slash + at + 1..], digest),
        None => (rest, "", digest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_keep_what_the_rule_does_not_change() {
        let rule = |new_name: &str, new_tag: &str, digest: &str| Image {
            name: "nginx".into(),
            new_name: new_name.into(),
            new_tag: new_tag.into(),
            digest: digest.into(),
            ..Image::default()
        };
        assert_eq!(update("nginx:1.27", &rule("", "1.28", "")).as_deref(), Some("nginx:1.28"));
        assert_eq!(update("nginx:1.27", &rule("r.io/nginx", "", "")).as_deref(), Some("r.io/nginx:1.27"));
        assert_eq!(update("nginx:1.27", &rule("", "", "sha256:ab")).as_deref(), Some("nginx@sha256:ab"));
        assert_eq!(update("nginxx:1.27", &rule("", "1.28", "")), None);
        assert_eq!(split("registry:5000/app"), ("registry:5000/app", "", ""));
    }
}
