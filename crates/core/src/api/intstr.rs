//! `IntOrString` (k8s.io/apimachinery/pkg/util/intstr): `maxSurge: 1` or `maxSurge: "25%"`, `targetPort: http`.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IntOrString {
    Int(i32),
    String(String),
}

impl fmt::Display for IntOrString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrString::Int(n) => write!(f, "{n}"),
            IntOrString::String(s) => f.write_str(s),
        }
    }
}

impl IntOrString {
    /// Upstream `GetScaledValueFromIntOrPercent`: an int is itself; `"N%"` is N% of `total`,
    /// rounded up or down as asked; a string without `%` is an error.
    pub fn scaled_value(&self, total: i32, round_up: bool) -> Result<i32, String> {
        match self {
            IntOrString::Int(n) => Ok(*n),
            IntOrString::String(s) => {
                let percent: i64 = s.strip_suffix('%').and_then(|p| p.parse().ok()).ok_or_else(|| {
                    "invalid value for IntOrString: invalid type: string is not a percentage".to_string()
                })?;
                let product = percent * i64::from(total);
                let value = if round_up { (product + 99).div_euclid(100) } else { product.div_euclid(100) };
                Ok(value as i32)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_scale_with_the_requested_rounding() {
        let quarter = IntOrString::String("25%".into());
        assert_eq!(quarter.scaled_value(3, true), Ok(1));
        assert_eq!(quarter.scaled_value(3, false), Ok(0));
        assert_eq!(quarter.scaled_value(10, true), Ok(3));
        assert_eq!(IntOrString::Int(2).scaled_value(10, false), Ok(2));
        assert!(IntOrString::String("25".into()).scaled_value(10, true).is_err());
        let parsed: IntOrString = serde_yaml::from_str("\"25%\"").unwrap();
        assert_eq!(parsed, quarter);
        let parsed: IntOrString = serde_yaml::from_str("1").unwrap();
        assert_eq!(parsed, IntOrString::Int(1));
    }
}
