//! `ResourceList` arithmetic as k8s.io/apiserver/pkg/quota/v1/resources.go has it: `Add`,
//! `Mask`, `LessThanOrEqual`, `RemoveZeros`, and the admission errors' `prettyPrint`.

use crate::api::container::ResourceList;

/// `Add`: every key of either list, summed where both have it.
pub fn add(a: &ResourceList, b: &ResourceList) -> ResourceList {
    let mut result = a.clone();
    for (name, quantity) in b {
        let sum = result.get(name).map_or(*quantity, |existing| existing.add(quantity));
        result.insert(name.clone(), sum);
    }
    result
}

/// `Mask`: only the keys named.
pub fn mask<'a>(list: &ResourceList, names: impl IntoIterator<Item = &'a String>) -> ResourceList {
    let mut result = ResourceList::new();
    for name in names {
        if let Some(quantity) = list.get(name) {
            result.insert(name.clone(), *quantity);
        }
    }
    result
}

/// `LessThanOrEqual`: the keys of `a` above `b` (keys `b` lacks are never above it).
pub fn exceeded(a: &ResourceList, b: &ResourceList) -> Vec<String> {
    a.iter()
        .filter(|(name, quantity)| b.get(*name).is_some_and(|limit| quantity.cmp_value(limit).is_gt()))
        .map(|(n, _)| n.clone())
        .collect()
}

/// `RemoveZeros`.
pub fn remove_zeros(list: &ResourceList) -> ResourceList {
    list.iter().filter(|(_, q)| !q.is_zero()).map(|(n, q)| (n.clone(), *q)).collect()
}

/// `Equals`: the same keys with equal values (formats aside).
pub fn equals(a: &ResourceList, b: &ResourceList) -> bool {
    a.len() == b.len()
        && a.iter().all(|(name, quantity)| b.get(name).is_some_and(|other| quantity.cmp_value(other).is_eq()))
}

/// `prettyPrint`: `name=value` pairs sorted by name, comma-joined.
pub fn pretty_print(list: &ResourceList) -> String {
    list.iter().map(|(name, quantity)| format!("{name}={quantity}")).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::quantity::Quantity;

    fn list(pairs: &[(&str, &str)]) -> ResourceList {
        pairs.iter().map(|(n, q)| (n.to_string(), Quantity::parse(q).unwrap())).collect()
    }

    #[test]
    fn usage_adds_up_exactly_and_prints_as_the_admission_error_does() {
        let used = list(&[("requests.cpu", "800m"), ("pods", "2")]);
        let requested = list(&[("requests.cpu", "500m"), ("requests.memory", "64Mi")]);
        let total = add(&used, &requested);
        assert_eq!(pretty_print(&total), "pods=2,requests.cpu=1300m,requests.memory=64Mi");
        let hard = list(&[("requests.cpu", "1"), ("requests.memory", "1Gi")]);
        assert_eq!(exceeded(&total, &hard), ["requests.cpu"]);
        let names = vec!["requests.cpu".to_string()];
        assert_eq!(pretty_print(&mask(&used, &names)), "requests.cpu=800m");
        assert!(equals(&list(&[("cpu", "1")]), &list(&[("cpu", "1000m")])));
        assert_eq!(remove_zeros(&list(&[("cpu", "0"), ("pods", "1")])).len(), 1);
    }
}
