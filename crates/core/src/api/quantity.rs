//! `Quantity` (`500m`, `1Gi`): apimachinery's `resource.Quantity`, ported so strings match upstream.
//!
//! Upstream keeps an `int64` mantissa with a decimal scale and falls back to arbitrary-precision
//! `inf.Dec`. Every parsed value is rounded up to a whole nano-unit anyway, so here the value is
//! one integer count of nano-units (a 128-bit number) plus the `Format` that decides how it
//! prints. Sources: `quantity.go` (`ParseQuantity`, `CanonicalizeBytes`, `Add`, `Cmp`),
//! `amount.go` (`AsCanonicalBytes`), `suffix.go` (`interpret`) and `math.go`.
//!
//! Where the 128-bit range runs out (beyond about 1.7e29 units) values saturate; upstream
//! would keep them exactly. Nothing a cluster schedules comes near that.

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// How a quantity prints: which suffix family its canonical string uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Powers of 1000 with `n u m k M G T P E` (e.g. `12M`); also used for cpu.
    DecimalSI,
    /// Powers of 1024 with `Ki Mi Gi Ti Pi Ei` (e.g. `12Mi`); memory and storage.
    BinarySI,
    /// `e`-notation with an exponent that is a multiple of 3 (e.g. `12e6`).
    DecimalExponent,
}

/// Why a string is not a quantity; `Display` is upstream's error text, word for word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantityError {
    message: &'static str,
}

impl QuantityError {
    /// Upstream `ErrFormatWrong`: the string is not number-then-suffix.
    const FORMAT: Self = Self {
        message: "quantities must match the regular expression \
                  '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    };
    /// Upstream `ErrNumeric`: the number part has no digits where upstream needs them.
    const NUMERIC: Self = Self { message: "unable to parse numeric part of quantity" };
    /// Upstream `ErrSuffix`: the suffix is not one of the known ones.
    const SUFFIX: Self = Self { message: "unable to parse quantity's suffix" };
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }
}

impl std::error::Error for QuantityError {}

/// A fixed-point resource amount: an integer count of nano-units and the format it prints in.
///
/// Equality, ordering and hashing look at the value only (upstream `Cmp`/`Equal` ignore the
/// format), so `1Gi == 1024Mi` and `1 == 1000m`.
#[derive(Clone, Copy)]
pub struct Quantity {
    // The nano-unit count is an i128 kept as two words: an i128 field is 16-byte aligned and
    // would pad the struct to 32 bytes, while the two words pack it into 24. Pods carry
    // several quantities each and a simulation holds a great many pods.
    nanos_hi: i64,
    nanos_lo: u64,
    format: Format,
}

/// Nano-units in one unit: the finest precision upstream keeps (`Nano` scale, 10^-9).
const NANOS_PER_UNIT: i128 = 1_000_000_000;

/// Largest magnitude held. Upstream has no upper bound except for BinarySI (below); here the
/// 128-bit count saturates instead of failing, in the spirit of upstream's own BinarySI cap
/// ("Numbers larger or more precise will be capped or rounded up").
const MAX_NANOS: i128 = i128::MAX;

/// Upstream `ParseQuantity` caps BinarySI values at 2^63-1 units ("The max is just a simple
/// cap"); decimal formats are not capped there and are not here.
const BINARY_MAX_NANOS: i128 = i64::MAX as i128 * NANOS_PER_UNIT;

/// Suffixes of the BinarySI powers of 1024, index = power. Upstream has no suffix for
/// 1024^0, so those values print bare; beyond `Ei` there is none at all (see `canonical_parts`).
const BINARY_SUFFIXES: [&str; 7] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];

impl Quantity {
    /// Parses a quantity string as upstream `ParseQuantity` does: no surrounding whitespace,
    /// values rounded up (away from zero) to a whole nano-unit, BinarySI capped at 2^63-1.
    pub fn parse(s: &str) -> Result<Quantity, QuantityError> {
        if s.is_empty() {
            return Err(QuantityError::FORMAT);
        }
        let scanned = scan(s.as_bytes())?;
        let (base, exponent, mut format) = interpret_suffix(scanned.suffix).ok_or(QuantityError::SUFFIX)?;
        if !scanned.has_digits && needs_digits(base, exponent) {
            return Err(QuantityError::NUMERIC);
        }
        let mut magnitude = magnitude_nanos(&scanned, base, exponent);
        if format == Format::BinarySI {
            magnitude = magnitude.min(BINARY_MAX_NANOS);
            // Upstream: a BinarySI amount strictly between 0 and 1 "avoids rounding and
            // hopefully confusion" by becoming DecimalSI.
            if magnitude > 0 && magnitude < NANOS_PER_UNIT {
                format = Format::DecimalSI;
            }
        }
        let nanos = if scanned.positive { magnitude } else { -magnitude };
        Ok(Quantity::from_nanos(nanos, format))
    }

    /// `milli` thousandths of a unit, like upstream `NewMilliQuantity` (cpu 500 -> `500m`).
    pub fn from_milli(milli: i64, format: Format) -> Quantity {
        Quantity::from_nanos(i128::from(milli) * 1_000_000, format)
    }

    /// `value` whole units, like upstream `NewQuantity` (memory bytes as BinarySI -> `1Gi`).
    pub fn from_int(value: i64, format: Format) -> Quantity {
        Quantity::from_nanos(i128::from(value) * NANOS_PER_UNIT, format)
    }

    /// Zero, formatted DecimalSI as upstream `MustParse("0")` is.
    pub fn zero() -> Quantity {
        Quantity::from_nanos(0, Format::DecimalSI)
    }

    /// Thousandths of a unit, rounded away from zero and saturating at the `i64` range
    /// (upstream `MilliValue`, which wraps instead on overflow).
    pub fn milli_value(&self) -> i64 {
        self.scaled_value(1_000_000)
    }

    /// Whole units, rounded away from zero and saturating at the `i64` range (upstream
    /// `Value`).
    pub fn value(&self) -> i64 {
        self.scaled_value(NANOS_PER_UNIT)
    }

    pub fn is_zero(&self) -> bool {
        self.nanos() == 0
    }

    pub fn format(&self) -> Format {
        self.format
    }

    /// `self + other`, saturating. Keeps `self`'s format, except that a zero `self` takes
    /// `other`'s, as upstream `Add` does (so `0 + 1Gi` prints `1Gi`).
    pub fn add(&self, other: &Quantity) -> Quantity {
        let sum = clamp(self.nanos().saturating_add(other.nanos()));
        Quantity::from_nanos(sum, self.format_after_arithmetic(other))
    }

    /// `self - other`, saturating, with the same format rule as `add` (upstream `Sub`).
    pub fn sub(&self, other: &Quantity) -> Quantity {
        let difference = clamp(self.nanos().saturating_sub(other.nanos()));
        Quantity::from_nanos(difference, self.format_after_arithmetic(other))
    }

    /// Compares values, ignoring formats (upstream `Cmp`).
    pub fn cmp_value(&self, other: &Quantity) -> Ordering {
        self.nanos().cmp(&other.nanos())
    }

    /// How Go's `%#v` prints the Quantity, as the API server quotes one in a field error
    /// (`resource.Quantity{i:resource.int64Amount{value:5, scale:-1}, …}` for `0.5`). The
    /// mantissa and scale are the shortest exact ones, which is what parsing decimal text gives
    /// (`500m` parsed keeps `value:500, scale:-3` upstream; here it reads `value:5, scale:-1`).
    pub fn go_dump(&self) -> String {
        let (mut value, mut scale) = (self.nanos(), -9i32);
        while value != 0 && value % 10 == 0 && scale < 0 {
            value /= 10;
            scale += 1;
        }
        let format = match self.format {
            Format::DecimalSI => "DecimalSI",
            Format::BinarySI => "BinarySI",
            Format::DecimalExponent => "DecimalExponent",
        };
        // ParseQuantity keeps the text only when it is already canonical (scale a multiple of 3).
        let text = if scale % 3 == 0 { self.to_string() } else { String::new() };
        format!(
            "resource.Quantity{{i:resource.int64Amount{{value:{value}, scale:{scale}}}, d:resource.infDecAmount{{Dec:(*inf.Dec)(nil)}}, s:{text:?}, Format:{format:?}}}"
        )
    }

    const fn from_nanos(nanos: i128, format: Format) -> Quantity {
        // Splitting into words: the high word is the arithmetic shift, the low word the
        // truncation; `nanos()` reassembles them exactly.
        Quantity { nanos_hi: (nanos >> 64) as i64, nanos_lo: nanos as u64, format }
    }

    fn nanos(&self) -> i128 {
        (i128::from(self.nanos_hi) << 64) | i128::from(self.nanos_lo)
    }

    fn format_after_arithmetic(&self, other: &Quantity) -> Format {
        if self.is_zero() { other.format } else { self.format }
    }

    /// Upstream `ScaledValue`: the value in units of `unit` nanos, rounded away from zero
    /// (see upstream's `TestNegativeValueRoundsAwayFromZero`).
    fn scaled_value(&self, unit: i128) -> i64 {
        let nanos = self.nanos();
        let mut scaled = nanos / unit;
        if nanos % unit != 0 {
            scaled += nanos.signum();
        }
        i64::try_from(scaled).unwrap_or(if scaled < 0 { i64::MIN } else { i64::MAX })
    }

    /// The canonical string, upstream `String()`/`CanonicalizeBytes`.
    fn canonical(&self) -> String {
        let nanos = self.nanos();
        if nanos == 0 {
            return "0".to_owned();
        }
        let sign = if nanos < 0 { "-" } else { "" };
        let (mantissa, suffix) = canonical_parts(nanos.unsigned_abs(), self.format);
        format!("{sign}{mantissa}{suffix}")
    }
}

/// Keeps saturated results symmetric (`-MAX_NANOS..=MAX_NANOS`) so negation never overflows.
fn clamp(nanos: i128) -> i128 {
    nanos.clamp(-MAX_NANOS, MAX_NANOS)
}

// ---------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------

/// Bytes that may start a suffix, from upstream's split regex `[eEinumkKMGTP]*`.
const SUFFIX_BYTES: &[u8] = b"eEinumkKMGTP";

/// A quantity string cut into its parts by `scan`.
#[derive(Debug, PartialEq)]
struct Scanned<'a> {
    positive: bool,
    /// Integer digits with leading zeros removed (upstream returns "0" for none).
    num: &'a [u8],
    /// Fraction digits after the `.`, as written.
    denom: &'a [u8],
    /// Whether the number part has any digit; upstream's `value` string.
    has_digits: bool,
    suffix: &'a [u8],
}

/// Upstream `parseQuantityString`: sign, leading zeros, integer digits, optional `.` and
/// fraction, then suffix letters, an optional sign and digits; anything left over is a
/// format error. Works on bytes, so non-ASCII input simply fails to match.
fn scan(b: &[u8]) -> Result<Scanned<'_>, QuantityError> {
    let mut pos = 0;
    let positive = b.first() != Some(&b'-');
    if matches!(b.first(), Some(b'-' | b'+')) {
        pos = 1;
    }
    let zeros_start = pos;
    pos += count_while(&b[pos..], |c| c == b'0');
    if pos == b.len() {
        // Upstream returns the number "0" here, so "-", "+" and "000" all parse as zero.
        return Ok(Scanned { positive, num: &[], denom: &[], has_digits: true, suffix: &[] });
    }
    let num_start = pos;
    pos += count_while(&b[pos..], |c| c.is_ascii_digit());
    let num = &b[num_start..pos];
    let mut denom: &[u8] = &[];
    if b.get(pos) == Some(&b'.') {
        let denom_start = pos + 1;
        pos = denom_start + count_while(&b[denom_start..], |c| c.is_ascii_digit());
        denom = &b[denom_start..pos];
    }
    let has_digits = num_start > zeros_start || !num.is_empty() || !denom.is_empty();
    let suffix_start = pos;
    pos += count_while(&b[pos..], |c| SUFFIX_BYTES.contains(&c));
    if matches!(b.get(pos), Some(b'-' | b'+')) {
        pos += 1;
    }
    pos += count_while(&b[pos..], |c| c.is_ascii_digit());
    if pos < b.len() {
        return Err(QuantityError::FORMAT);
    }
    Ok(Scanned { positive, num, denom, has_digits, suffix: &b[suffix_start..] })
}

fn count_while(b: &[u8], pred: impl Fn(u8) -> bool) -> usize {
    b.iter().take_while(|&&c| pred(c)).count()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Base {
    Ten,
    Two,
}

/// Upstream `suffixer.interpret`: the suffix's base, exponent and format. `e`/`E` plus a
/// signed integer is DecimalExponent; exponents beyond ±(2^31-1) are rejected, as upstream
/// now does rather than truncating them to an unrelated int32.
fn interpret_suffix(suffix: &[u8]) -> Option<(Base, i32, Format)> {
    let decimal = |exponent| Some((Base::Ten, exponent, Format::DecimalSI));
    let binary = |exponent| Some((Base::Two, exponent, Format::BinarySI));
    match suffix {
        b"" => decimal(0),
        b"n" => decimal(-9),
        b"u" => decimal(-6),
        b"m" => decimal(-3),
        b"k" => decimal(3),
        b"M" => decimal(6),
        b"G" => decimal(9),
        b"T" => decimal(12),
        b"P" => decimal(15),
        b"E" => decimal(18),
        b"Ki" => binary(10),
        b"Mi" => binary(20),
        b"Gi" => binary(30),
        b"Ti" => binary(40),
        b"Pi" => binary(50),
        b"Ei" => binary(60),
        [b'e' | b'E', rest @ ..] if !rest.is_empty() => {
            let exponent: i64 = std::str::from_utf8(rest).ok()?.parse().ok()?;
            let exponent = i32::try_from(exponent).ok().filter(|e| *e != i32::MIN)?;
            Some((Base::Ten, exponent, Format::DecimalExponent))
        }
        _ => None,
    }
}

/// Whether upstream would take its arbitrary-precision path, which fails with `ErrNumeric`
/// on a number part without digits ("e-10", "Pi"); its int64 fast path reads those as 0.
/// The fast path needs a decimal scale of at least nano, or for BinarySI a precision
/// estimate `15 - len(num) - exponent*3/10 - 1` (with `len(num)` = 1) of at least 0.
fn needs_digits(base: Base, exponent: i32) -> bool {
    match base {
        Base::Ten => exponent < -9,
        Base::Two => 15 - 1 - exponent * 3 / 10 - 1 < 0,
    }
}

/// The magnitude in nano-units, rounded up and saturated at `MAX_NANOS`: upstream's
/// `amount.Round(amount, Nano, inf.RoundUp)` on the absolute value.
fn magnitude_nanos(scanned: &Scanned<'_>, base: Base, exponent: i32) -> i128 {
    let digits: Vec<u8> = (scanned.num.iter().chain(scanned.denom)).copied().skip_while(|&c| c == b'0').collect();
    let denom_len = scanned.denom.len() as i64;
    let exact = match base {
        // digits × 10^(exponent - denom_len) units = digits × 10^(exponent - denom_len + 9) nanos
        Base::Ten => ceil_shift(&digits, i64::from(exponent) + 9 - denom_len),
        Base::Two => ceil_shift(&mul_pow2(&digits, exponent.unsigned_abs()), 9 - denom_len),
    };
    exact.map_or(MAX_NANOS, |n| i128::try_from(n).unwrap_or(MAX_NANOS))
}

/// `ceil(digits × 10^shift)` for a decimal digit string without leading zeros, or `None`
/// when it does not fit a `u128`. Linear in the digits kept, so long inputs stay cheap.
fn ceil_shift(digits: &[u8], shift: i64) -> Option<u128> {
    if digits.is_empty() {
        return Some(0);
    }
    if shift >= 0 {
        // 10^39 already exceeds u128, so longer results cannot fit.
        if digits.len() as u64 + shift.unsigned_abs() > 39 {
            return None;
        }
        let mut value = digits_value(digits)?;
        for _ in 0..shift {
            value = value.checked_mul(10)?;
        }
        return Some(value);
    }
    let dropped = shift.unsigned_abs();
    if dropped >= digits.len() as u64 {
        return Some(1); // a non-zero fraction of a nano rounds up to one
    }
    let (kept, rest) = digits.split_at(digits.len() - dropped as usize);
    let round_up = rest.iter().any(|&c| c != b'0');
    digits_value(kept)?.checked_add(u128::from(round_up))
}

fn digits_value(digits: &[u8]) -> Option<u128> {
    digits.iter().try_fold(0u128, |acc, &c| acc.checked_mul(10)?.checked_add(u128::from(c - b'0')))
}

/// `digits × 2^exponent` as a decimal digit string, exact for any length: BinarySI fractions
/// such as "9.5000000001Gi" must be multiplied out before rounding to nanos.
fn mul_pow2(digits: &[u8], exponent: u32) -> Vec<u8> {
    const LIMB: u64 = 1_000_000_000;
    // Little-endian base-10^9 limbs; each step multiplies by at most 2^30 so a limb times
    // the factor plus carry stays below 2^64.
    let mut limbs: Vec<u64> =
        digits.rchunks(9).map(|chunk| chunk.iter().fold(0, |acc, &c| acc * 10 + u64::from(c - b'0'))).collect();
    let mut remaining = exponent;
    while remaining > 0 && !limbs.is_empty() {
        let step = remaining.min(30);
        remaining -= step;
        let mut carry = 0;
        for limb in &mut limbs {
            let product = (*limb << step) + carry;
            *limb = product % LIMB;
            carry = product / LIMB;
        }
        while carry > 0 {
            limbs.push(carry % LIMB);
            carry /= LIMB;
        }
    }
    let mut out = String::with_capacity(limbs.len() * 9);
    for (i, limb) in limbs.iter().rev().enumerate() {
        if i == 0 {
            out.push_str(&limb.to_string());
        } else {
            out.push_str(&format!("{limb:09}"));
        }
    }
    out.into_bytes()
}

// ---------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------

/// The suffix half of a canonical string.
enum Suffix {
    Named(&'static str),
    /// `e<n>`, or nothing for 0 (upstream `constructBytes` for DecimalExponent).
    Exponent(i32),
}

impl fmt::Display for Suffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Suffix::Named(s) => f.write_str(s),
            Suffix::Exponent(0) => Ok(()),
            Suffix::Exponent(e) => write!(f, "e{e}"),
        }
    }
}

/// Mantissa and suffix of a non-zero magnitude (upstream `CanonicalizeBytes`): the largest
/// exponent that keeps the mantissa an integer. BinarySI values below 1024 or with a
/// fraction print as DecimalSI, so no precision is lost.
fn canonical_parts(magnitude: u128, format: Format) -> (u128, Suffix) {
    let nanos_per_unit = NANOS_PER_UNIT.unsigned_abs();
    match format {
        Format::BinarySI if magnitude >= 1024 * nanos_per_unit && magnitude.is_multiple_of(nanos_per_unit) => {
            let (mantissa, power) = remove_factors(magnitude / nanos_per_unit, 1024);
            match BINARY_SUFFIXES.get(power as usize) {
                Some(suffix) => (mantissa, Suffix::Named(suffix)),
                // Past `Ei` there is no binary suffix; upstream now falls back to the exact
                // decimal exponent form instead of dropping the magnitude (2^70 once
                // printed as "1").
                None => decimal_parts(magnitude, Format::DecimalExponent),
            }
        }
        Format::BinarySI | Format::DecimalSI => decimal_parts(magnitude, Format::DecimalSI),
        Format::DecimalExponent => decimal_parts(magnitude, Format::DecimalExponent),
    }
}

/// Upstream `AsCanonicalBytes`: strip factors of ten into the exponent, then lower the
/// exponent to a multiple of 3 and name it. DecimalSI has no suffix past `E` (10^18), so
/// larger exponents fall back to `e` notation, as upstream now does (`1000E` -> `1e21`).
fn decimal_parts(magnitude: u128, format: Format) -> (u128, Suffix) {
    let (mut mantissa, times) = remove_factors(magnitude, 10);
    // Starting from nanos (10^-9) keeps the exponent at or above -9, and every factor of
    // ten multiplied back here was stripped above, so the mantissa cannot overflow.
    let mut exponent = times as i32 - 9;
    match exponent.rem_euclid(3) {
        1 => {
            mantissa *= 10;
            exponent -= 1;
        }
        2 => {
            mantissa *= 100;
            exponent -= 2;
        }
        _ => {}
    }
    let suffix = match format {
        Format::DecimalSI => decimal_si_suffix(exponent).map_or(Suffix::Exponent(exponent), Suffix::Named),
        _ => Suffix::Exponent(exponent),
    };
    (mantissa, suffix)
}

fn decimal_si_suffix(exponent: i32) -> Option<&'static str> {
    Some(match exponent {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        0 => "",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => return None,
    })
}

/// Upstream `removeInt64Factors`: divides out `base` while it divides evenly.
fn remove_factors(mut value: u128, base: u128) -> (u128, u32) {
    let mut times = 0;
    while value >= base && value.is_multiple_of(base) {
        value /= base;
        times += 1;
    }
    (value, times)
}

// ---------------------------------------------------------------------------------------
// Trait implementations
// ---------------------------------------------------------------------------------------

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.canonical())
    }
}

impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Quantity").field(&self.canonical()).field(&self.format).finish()
    }
}

impl Default for Quantity {
    fn default() -> Self {
        Quantity::zero()
    }
}

impl FromStr for Quantity {
    type Err = QuantityError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Quantity::parse(s)
    }
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.nanos() == other.nanos()
    }
}

impl Eq for Quantity {}

impl Hash for Quantity {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.nanos().hash(state);
    }
}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    fn cmp(&self, other: &Self) -> Ordering {
        self.cmp_value(other)
    }
}

impl Serialize for Quantity {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Quantity {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(QuantityVisitor)
    }
}

/// Accepts what upstream `UnmarshalJSON` does: a string (surrounding whitespace trimmed), a
/// bare number (`cpu: 1`, `cpu: 0.5`) and null (zero).
struct QuantityVisitor;

impl QuantityVisitor {
    fn parse<E: de::Error>(s: &str) -> Result<Quantity, E> {
        Quantity::parse(s.trim()).map_err(E::custom)
    }
}

impl Visitor<'_> for QuantityVisitor {
    type Value = Quantity;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a quantity such as \"500m\" or \"1Gi\", or a number")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Quantity, E> {
        Self::parse(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Quantity, E> {
        Self::parse(&v.to_string())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Quantity, E> {
        Self::parse(&v.to_string())
    }

    /// Upstream parses the number's JSON text. Rust's `{}` for floats is the shortest
    /// string that round-trips and never uses exponent notation, so `0.5` parses exactly
    /// like the string "0.5" and no float arithmetic touches the value.
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Quantity, E> {
        Self::parse(&v.to_string())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Quantity, E> {
        Ok(Quantity::zero())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Format::{BinarySI, DecimalExponent, DecimalSI};

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    /// Upstream's test helper `decQuantity(mantissa, exponent, format)`: mantissa × 10^exponent.
    const fn dec(mantissa: i128, exponent: i32, format: Format) -> Quantity {
        assert!(exponent >= -9, "finer than a nano-unit");
        let nanos = mantissa * 10i128.pow((exponent + 9).unsigned_abs());
        Quantity::from_nanos(nanos, format)
    }

    fn neg(x: Quantity) -> Quantity {
        Quantity::from_nanos(-x.nanos(), x.format)
    }

    /// Upstream TestQuantityParse: input, then the value and format it must parse to. Each
    /// row is also checked with a leading "-" (negated value, same format) and "+".
    #[test]
    fn parses_upstream_table() {
        for &(input, want) in PARSE_TABLE {
            for (prefix, want) in [("", want), ("+", want), ("-", neg(want))] {
                let got = q(&format!("{prefix}{input}"));
                assert_eq!(got.nanos(), want.nanos(), "value of {prefix}{input}");
                assert_eq!(got.format(), want.format(), "format of {prefix}{input}");
            }
        }
    }

    const PARSE_TABLE: &[(&str, Quantity)] = &[
        ("0", dec(0, 0, DecimalSI)),
        ("0n", dec(0, 0, DecimalSI)),
        ("0u", dec(0, 0, DecimalSI)),
        ("0m", dec(0, 0, DecimalSI)),
        ("0Ki", dec(0, 0, BinarySI)),
        ("0k", dec(0, 0, DecimalSI)),
        ("0Mi", dec(0, 0, BinarySI)),
        ("0M", dec(0, 0, DecimalSI)),
        ("0Gi", dec(0, 0, BinarySI)),
        ("0G", dec(0, 0, DecimalSI)),
        ("0Ti", dec(0, 0, BinarySI)),
        ("0T", dec(0, 0, DecimalSI)),
        // Quantity-less numbers are allowed
        ("1", dec(1, 0, DecimalSI)),
        // Binary suffixes
        ("1Ki", dec(1024, 0, BinarySI)),
        ("8Ki", dec(8 * 1024, 0, BinarySI)),
        ("7Mi", dec(7 << 20, 0, BinarySI)),
        ("6Gi", dec(6 << 30, 0, BinarySI)),
        ("5Ti", dec(5 << 40, 0, BinarySI)),
        ("4Pi", dec(4 << 50, 0, BinarySI)),
        ("3Ei", dec(3 << 60, 0, BinarySI)),
        ("10Ti", dec(10 << 40, 0, BinarySI)),
        ("100Ti", dec(100 << 40, 0, BinarySI)),
        // Decimal suffixes
        ("5n", dec(5, -9, DecimalSI)),
        ("4u", dec(4, -6, DecimalSI)),
        ("3m", dec(3, -3, DecimalSI)),
        ("9", dec(9, 0, DecimalSI)),
        ("8k", dec(8, 3, DecimalSI)),
        ("50k", dec(5, 4, DecimalSI)),
        ("7M", dec(7, 6, DecimalSI)),
        ("6G", dec(6, 9, DecimalSI)),
        ("5T", dec(5, 12, DecimalSI)),
        ("40T", dec(4, 13, DecimalSI)),
        ("300T", dec(3, 14, DecimalSI)),
        ("2P", dec(2, 15, DecimalSI)),
        ("1E", dec(1, 18, DecimalSI)),
        // Decimal exponents
        ("1E-3", dec(1, -3, DecimalExponent)),
        ("1e3", dec(1, 3, DecimalExponent)),
        ("1E6", dec(1, 6, DecimalExponent)),
        ("1e9", dec(1, 9, DecimalExponent)),
        ("1E12", dec(1, 12, DecimalExponent)),
        ("1e15", dec(1, 15, DecimalExponent)),
        ("1E18", dec(1, 18, DecimalExponent)),
        // Nonstandard but still parsable
        ("1e14", dec(1, 14, DecimalExponent)),
        ("1e13", dec(1, 13, DecimalExponent)),
        ("100.035k", dec(100035, 0, DecimalSI)),
        // Things that look like floating point
        ("0.001", dec(1, -3, DecimalSI)),
        ("0.0005k", dec(5, -1, DecimalSI)),
        ("0.005", dec(5, -3, DecimalSI)),
        ("0.05", dec(5, -2, DecimalSI)),
        ("0.5", dec(5, -1, DecimalSI)),
        ("0.00050k", dec(5, -1, DecimalSI)),
        ("0.00500", dec(5, -3, DecimalSI)),
        ("0.05000", dec(5, -2, DecimalSI)),
        ("0.50000", dec(5, -1, DecimalSI)),
        ("0.5e0", dec(5, -1, DecimalExponent)),
        ("0.5e-1", dec(5, -2, DecimalExponent)),
        ("0.5e-2", dec(5, -3, DecimalExponent)),
        ("10.035M", dec(10035, 3, DecimalSI)),
        ("1.2e3", dec(12, 2, DecimalExponent)),
        ("1.3E+6", dec(13, 5, DecimalExponent)),
        ("1.40e9", dec(14, 8, DecimalExponent)),
        ("1.53E12", dec(153, 10, DecimalExponent)),
        ("1.6e15", dec(16, 14, DecimalExponent)),
        ("1.7E18", dec(17, 17, DecimalExponent)),
        ("9.01", dec(901, -2, DecimalSI)),
        ("8.1k", dec(81, 2, DecimalSI)),
        ("7.123456M", dec(7123456, 0, DecimalSI)),
        ("6.987654321G", dec(6987654321, 0, DecimalSI)),
        ("5.444T", dec(5444, 9, DecimalSI)),
        ("40.1T", dec(401, 11, DecimalSI)),
        ("300.2T", dec(3002, 11, DecimalSI)),
        ("2.5P", dec(25, 14, DecimalSI)),
        ("1.01E", dec(101, 16, DecimalSI)),
        // Things that saturate/round
        ("3.001n", dec(4, -9, DecimalSI)),
        ("1.1E-9", dec(2, -9, DecimalExponent)),
        ("0.0000000001", dec(1, -9, DecimalSI)),
        ("0.0000000005", dec(1, -9, DecimalSI)),
        ("0.00000000050", dec(1, -9, DecimalSI)),
        ("0.5e-9", dec(1, -9, DecimalExponent)),
        ("0.9n", dec(1, -9, DecimalSI)),
        ("0.00000012345", dec(124, -9, DecimalSI)),
        ("0.00000012354", dec(124, -9, DecimalSI)),
        ("9Ei", dec(i64::MAX as i128, 0, BinarySI)),
        ("9223372036854775807Ki", dec(i64::MAX as i128, 0, BinarySI)),
        ("12E", dec(12, 18, DecimalSI)),
        // We'll accept fractional binary stuff, too.
        ("100.035Ki", dec(10243584, -2, BinarySI)),
        ("0.5Mi", dec(512 * 1024, 0, BinarySI)),
        ("0.05Gi", dec(536870912, -1, BinarySI)),
        ("0.025Ti", dec(274877906944, -1, BinarySI)),
        // Things written by trolls
        ("0.000000000001Ki", dec(2, -9, DecimalSI)), // rounds up, changes format
        (".001", dec(1, -3, DecimalSI)),
        (".0001k", dec(100, -3, DecimalSI)),
        ("1.", dec(1, 0, DecimalSI)),
        ("1.G", dec(1, 9, DecimalSI)),
    ];

    /// Upstream's invalid rows, plus edge cases read off `parseQuantityString`, with the
    /// exact error upstream returns.
    #[test]
    fn rejects_with_upstream_errors() {
        let format = QuantityError::FORMAT;
        let suffix = QuantityError::SUFFIX;
        let numeric = QuantityError::NUMERIC;
        let table = [
            ("", &format),
            ("1.1.M", &format),
            ("1+1.0M", &format),
            ("0.1mi", &suffix),
            ("0.1am", &format),
            ("aoeu", &format),
            ("Non-Numeric", &format),
            (".5i", &suffix),
            ("1i", &suffix),
            ("-3.01i", &suffix),
            ("-3.01e-", &suffix),
            ("1e4294967297", &suffix),
            ("1E2147483648", &suffix),
            ("1E-2147483648", &suffix),
            ("1e9223372036854775808", &suffix),
            (" 1", &format),
            ("1 ", &format),
            ("1e", &suffix),
            ("1K", &suffix),
            ("1mm", &suffix),
            ("1e3e3", &format),
            ("1e--3", &format),
            ("1KiB", &format),
            ("1Kii", &suffix),
            ("ä", &format),
            ("1ä", &format),
            // No digits where upstream's big-decimal path needs them.
            ("e-10", &numeric),
            ("-.e-10", &numeric),
            ("Pi", &numeric),
            ("Ei", &numeric),
        ];
        for (input, want) in table {
            assert_eq!(Quantity::parse(input).as_ref(), Err(want), "{input:?}");
        }
        assert_eq!(
            format.to_string(),
            "quantities must match the regular expression \
             '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        );
    }

    /// Digit-less numbers that upstream's int64 fast path reads as zero.
    #[test]
    fn accepts_upstream_digitless_quirks() {
        for (input, format) in [
            (".", DecimalSI),
            ("-.", DecimalSI),
            ("-", DecimalSI),
            ("+", DecimalSI),
            ("m", DecimalSI),
            ("Ki", BinarySI),
            ("Ti", BinarySI),
            ("e-9", DecimalExponent),
            ("00", DecimalSI),
        ] {
            let got = q(input);
            assert!(got.is_zero(), "{input:?}");
            assert_eq!(got.format(), format, "{input:?}");
        }
    }

    /// Upstream TestParseQuantityString: how the scanner cuts a string up.
    #[test]
    fn scans_like_parse_quantity_string() {
        let table: [(&str, bool, &str, &str, &str); 6] = [
            ("0.025Ti", true, "", "025", "Ti"),
            ("1.025Ti", true, "1", "025", "Ti"),
            ("-1.025Ti", false, "1", "025", "Ti"),
            (".", true, "", "", ""),
            ("-.", false, "", "", ""),
            ("1E-3", true, "1", "", "E-3"),
        ];
        for (input, positive, num, denom, suffix) in table {
            let got = scan(input.as_bytes()).unwrap();
            assert_eq!(got.positive, positive, "{input}");
            assert_eq!(got.num, num.as_bytes(), "{input}");
            assert_eq!(got.denom, denom.as_bytes(), "{input}");
            assert_eq!(got.suffix, suffix.as_bytes(), "{input}");
        }
    }

    /// Upstream TestQuantityString: a value, its canonical string, and another spelling
    /// that must canonicalize to the same string. Negated values print with a "-".
    /// (Rows beyond 2^127 nanos, such as 1e70, do not fit and are left out.)
    #[test]
    fn prints_canonical_strings() {
        for &(value, want, alternate) in CANONICAL_TABLE {
            assert_eq!(value.to_string(), want, "{value:?}");
            assert_eq!(q(want).to_string(), want, "reparsed {want}");
            if !alternate.is_empty() {
                assert_eq!(q(alternate).to_string(), want, "alternate {alternate}");
            }
            if !value.is_zero() {
                assert_eq!(neg(value).to_string(), format!("-{want}"));
            }
        }
    }

    const CANONICAL_TABLE: &[(Quantity, &str, &str)] = &[
        (dec(1 << 30, 0, BinarySI), "1Gi", "1024Mi"),
        (dec(300 << 20, 0, BinarySI), "300Mi", "307200Ki"),
        (dec(6 * 1024, 0, BinarySI), "6Ki", ""),
        (dec(1001 << 30, 0, BinarySI), "1001Gi", "1025024Mi"),
        (dec(1 << 40, 0, BinarySI), "1Ti", "1024Gi"),
        (dec(5, 0, BinarySI), "5", "5000m"),
        (dec(500, -3, BinarySI), "500m", "0.5"),
        (dec(1, 9, DecimalSI), "1G", "1000M"),
        (dec(1000, 6, DecimalSI), "1G", "0.001T"),
        (dec(1000000, 3, DecimalSI), "1G", ""),
        (dec(1000000000, 0, DecimalSI), "1G", ""),
        (dec(1, -3, DecimalSI), "1m", "1000u"),
        (dec(80, -3, DecimalSI), "80m", ""),
        (dec(1080, -3, DecimalSI), "1080m", "1.08"),
        (dec(108, -2, DecimalSI), "1080m", "1080000000n"),
        (dec(10800, -4, DecimalSI), "1080m", ""),
        (dec(300, 6, DecimalSI), "300M", ""),
        (dec(1, 12, DecimalSI), "1T", ""),
        (dec(1, 18, DecimalSI), "1E", ""),
        (dec(1, 21, DecimalSI), "1e21", "1000E"),
        (dec(5, 21, DecimalSI), "5e21", "5000E"),
        (dec(1, 24, DecimalSI), "1e24", "1000000E"),
        (dec(1234567, 6, DecimalSI), "1234567M", ""),
        (dec(1234567, -3, BinarySI), "1234567m", ""),
        (dec(3, 3, DecimalSI), "3k", ""),
        (dec(1025, 0, BinarySI), "1025", ""),
        (dec(0, 0, DecimalSI), "0", ""),
        (dec(0, 0, BinarySI), "0", ""),
        (dec(1, 9, DecimalExponent), "1e9", ".001e12"),
        (dec(1, -3, DecimalExponent), "1e-3", "0.001e0"),
        (dec(1, -9, DecimalExponent), "1e-9", "1000e-12"),
        (dec(80, -3, DecimalExponent), "80e-3", ""),
        (dec(300, 6, DecimalExponent), "300e6", ""),
        (dec(1, 12, DecimalExponent), "1e12", ""),
        (dec(1, 3, DecimalExponent), "1e3", ""),
        (dec(3, 3, DecimalExponent), "3e3", ""),
        (dec(0, 0, DecimalExponent), "0", "00"),
        (dec(1, -9, DecimalSI), "1n", ""),
        (dec(80, -9, DecimalSI), "80n", ""),
        (dec(1080, -9, DecimalSI), "1080n", ""),
        (dec(108, -8, DecimalSI), "1080n", ""),
        (dec(1, -6, DecimalSI), "1u", ""),
        (dec(80, -6, DecimalSI), "80u", ""),
        (dec(1080, -6, DecimalSI), "1080u", ""),
    ];

    /// Upstream TestBinarySIZeroExponentString: BinarySI has no suffix for 1024^0.
    #[test]
    fn binary_without_suffix_prints_bare() {
        assert_eq!(dec(2000, 0, BinarySI).to_string(), "2000");
        assert_eq!(dec(-2000, 0, BinarySI).to_string(), "-2000");
    }

    /// Upstream TestQuantityParseEmit plus the examples from the Quantity docs: input and
    /// the canonical string it is re-emitted as (also negated).
    #[test]
    fn parse_then_emit() {
        for &(input, want) in EMIT_TABLE {
            assert_eq!(q(input).to_string(), want, "{input}");
            if !want.starts_with('-') && want != "0" {
                assert_eq!(q(&format!("-{input}")).to_string(), format!("-{want}"));
            }
        }
    }

    const EMIT_TABLE: &[(&str, &str)] = &[
        ("1Ki", "1Ki"),
        ("1Mi", "1Mi"),
        ("1Gi", "1Gi"),
        ("1024Mi", "1Gi"),
        ("1000M", "1G"),
        (".001Ki", "1024m"),
        (".000001Ki", "1024u"),
        (".000000001Ki", "1024n"),
        (".000000000001Ki", "2n"),
        ("0.5", "500m"),
        ("1.5", "1500m"),
        ("1.5Gi", "1536Mi"),
        ("1.5Ki", "1536"),
        ("100m", "100m"),
        ("1000m", "1"),
        ("1e3", "1e3"),
        ("1e1", "10"),
        ("12e6", "12e6"),
        ("1.2e7", "12e6"),
        ("0", "0"),
        ("1k", "1k"),
        ("1000", "1k"),
        ("16Gi", "16Gi"),
        ("128974848", "128974848"),
        ("129e6", "129e6"),
        ("123Mi", "123Mi"),
        ("0.5Ki", "512"),
        ("1023Ki", "1023Ki"),
        ("2048Ki", "2Mi"),
        ("9Ei", "9223372036854775807"),
        ("-9Ei", "-9223372036854775807"),
        ("-3.001n", "-4n"),
        ("1e-7466", "1e-9"),
        ("-.484785E-7466", "-1e-9"),
    ];

    /// Deliberate difference: upstream's `String()` returns the input verbatim when its
    /// int64 fast path thinks it canonical, which lets a sign, leading zeros or trailing
    /// fraction zeros through. This type keeps no string, so it always prints the canonical
    /// form (equal in value, and what upstream prints after any arithmetic).
    #[test]
    fn always_prints_canonical_form() {
        for (input, want) in [("+1", "1"), ("01", "1"), ("1.500k", "1500"), ("+1Ki", "1Ki")] {
            assert_eq!(q(input).to_string(), want, "{input}");
        }
    }

    /// Upstream TestParseQuantity: values around the int64 limits keep every digit;
    /// an empty expectation means the input is already canonical.
    #[test]
    fn keeps_precision_near_int64_limits() {
        for &(input, canonical) in INT64_LIMIT_TABLE {
            let want = if canonical.is_empty() { input } else { canonical };
            assert_eq!(q(input).to_string(), want, "{input}");
            assert_eq!(q(&format!("-{input}")).to_string(), format!("-{want}"));
        }
    }

    const INT64_LIMIT_TABLE: &[(&str, &str)] = &[
        ("999999999999999999", ""),
        ("999999999999999999.0", "999999999999999999"),
        ("999999999999999999.1", "999999999999999999100m"),
        ("9999999999999999999", ""),
        ("1E", ""),
        ("1000000000000000000", "1E"),
        ("9999999999999999999.0", "9999999999999999999"),
        ("1.0E", "1E"),
        ("1000000000000000000.0", "1E"),
        ("9999999999999999999000m", "9999999999999999999"),
        ("9999999999999999999.1", "9999999999999999999100m"),
        ("1.0000000000000000001E", "1000000000000000000100m"),
        ("1000000000000000000.1", "1000000000000000000100m"),
        ("1.000000000000000001E", "1000000000000000001"),
        ("1000000000000000001", ""),
        ("10E", ""),
        ("10000000000000000000", "10E"),
        ("10.0E", "10E"),
        ("10000000000000000000000m", "10E"),
        ("10.0000000000000000001E", "10000000000000000000100m"),
        ("10.000000000000000001E", "10000000000000000001"),
        ("10000000000000000001", ""),
        ("9223372036854775806", ""),
        ("9223372036854775806.1", "9223372036854775806100m"),
        ("9223372036854775807", ""),
        ("9223372036854775807000m", "9223372036854775807"),
        ("9223372036854775807.1", "9223372036854775807100m"),
        ("9223372036854775808", ""),
        ("9223372036854775808.0", "9223372036854775808"),
        ("9223372036854775808.1", "9223372036854775808100m"),
    ];

    /// Upstream TestNewSet and TestMilliNewSet (upstream's "invalid format defaults to
    /// exponent" rows use DecimalExponent directly).
    #[test]
    fn builds_from_integers() {
        let ints = [
            (1, DecimalSI, "1"),
            (1000, DecimalSI, "1k"),
            (1234000, DecimalSI, "1234k"),
            (1024, BinarySI, "1Ki"),
            (1000000, DecimalExponent, "1e6"),
            (1024 * 1024, BinarySI, "1Mi"),
        ];
        for (value, format, want) in ints {
            let got = Quantity::from_int(value, format);
            assert_eq!(got.to_string(), want);
            assert_eq!(q(want).value(), value);
        }
        let millis = [
            (1, DecimalSI, "1m"),
            (1000, DecimalSI, "1"),
            (1234000, DecimalSI, "1234"),
            (1024, BinarySI, "1024m"), // below 1: prints as DecimalSI
            (1000000, DecimalExponent, "1e3"),
            (1024 * 1024, BinarySI, "1048576m"), // fractional: prints as DecimalSI
        ];
        for (milli, format, want) in millis {
            let got = Quantity::from_milli(milli, format);
            assert_eq!(got.to_string(), want);
            assert_eq!(q(want).milli_value(), milli);
        }
        assert_eq!(Quantity::zero().to_string(), "0");
        assert_eq!(Quantity::default(), Quantity::zero());
    }

    /// Upstream TestNegativeValueRoundsAwayFromZero: input, `value()`, `milli_value()`.
    #[test]
    fn values_round_away_from_zero() {
        let table = [
            ("-.484785E-7466", -1, -1),
            (".484785E-7466", 1, 1),
            ("-.484785E-1", -1, -49),
            (".484785E-1", 1, 49),
            ("-0.0005", -1, -1),
            ("0.0005", 1, 1),
            ("-1500m", -2, -1500),
            ("1500m", 2, 1500),
            ("-9.5000000001Gi", -10200547329, -10200547328108),
            ("9.5000000001Gi", 10200547329, 10200547328108),
            ("-1", -1, -1000),
            ("1", 1, 1000),
            ("0", 0, 0),
            // Saturating where upstream would overflow.
            ("1e30", i64::MAX, i64::MAX),
            ("-1e30", i64::MIN, i64::MIN),
            ("9Ei", i64::MAX, i64::MAX),
        ];
        for (input, value, milli) in table {
            assert_eq!(q(input).value(), value, "value of {input}");
            assert_eq!(q(input).milli_value(), milli, "milli_value of {input}");
        }
    }

    /// Upstream TestAdd and TestSub: a, b, a+b, a-b; the result keeps a's format unless a
    /// is zero.
    #[test]
    fn adds_and_subtracts() {
        let zero = Quantity::zero();
        let table = [
            (dec(10, 0, DecimalSI), dec(1, 1, DecimalSI), dec(20, 0, DecimalSI), dec(0, 0, DecimalSI)),
            (dec(10, 0, DecimalSI), dec(1, 0, BinarySI), dec(11, 0, DecimalSI), dec(9, 0, DecimalSI)),
            (dec(10, 0, BinarySI), dec(1, 0, DecimalSI), dec(11, 0, BinarySI), dec(9, 0, BinarySI)),
            (zero, dec(50, 0, DecimalSI), dec(50, 0, DecimalSI), dec(-50, 0, DecimalSI)),
            (dec(50, 0, DecimalSI), zero, dec(50, 0, DecimalSI), dec(50, 0, DecimalSI)),
            (zero, zero, zero, zero),
        ];
        for (a, b, sum, difference) in table {
            assert_eq!(a.add(&b), sum, "{a:?} + {b:?}");
            assert_eq!(a.add(&b).format(), sum.format(), "{a:?} + {b:?}");
            assert_eq!(a.sub(&b), difference, "{a:?} - {b:?}");
            assert_eq!(a.sub(&b).format(), difference.format(), "{a:?} - {b:?}");
        }
    }

    /// Upstream TestQuantityAddZeroPreservesSuffix / TestQuantitySubZeroPreservesSuffix.
    #[test]
    fn zero_operand_preserves_suffix() {
        let zero = q("0");
        for s in ["100m", "1Gi"] {
            let value = q(s);
            assert_eq!(value.add(&zero).to_string(), s);
            assert_eq!(zero.add(&value).to_string(), s);
            assert_eq!(value.sub(&zero).to_string(), s);
            assert_eq!(zero.sub(&value).to_string(), format!("-{s}"));
        }
        // Upstream TestQuantityNeg: 9.01 negated.
        assert_eq!(zero.sub(&dec(901, -2, DecimalSI)).to_string(), "-9010m");
    }

    #[test]
    fn arithmetic_saturates() {
        let huge = q("1e40");
        assert_eq!(huge.add(&huge), huge);
        assert_eq!(neg(huge).sub(&huge), neg(huge));
        assert_eq!(huge.sub(&neg(huge)).value(), i64::MAX);
    }

    /// Upstream TestBinarySIPastEiArithmeticRoundTrip: 2^70 has no binary suffix and
    /// prints as exact decimal digits that parse back to the same value.
    #[test]
    fn binary_past_ei_prints_decimal() {
        let ei = q("1Ei");
        let mut sum = Quantity::zero();
        for _ in 0..1024 {
            sum = sum.add(&ei);
        }
        assert_eq!(sum.format(), BinarySI);
        assert_eq!(sum.to_string(), "1180591620717411303424");
        assert_eq!(q(&sum.to_string()), sum);
        // TestZeroSubMostNegativeInheritsFormat: 2^63 is 8Ei once arithmetic exceeds the cap.
        let eight_ei = Quantity::zero().sub(&Quantity::from_int(i64::MIN, BinarySI));
        assert_eq!(eight_ei.to_string(), "8Ei");
    }

    /// Upstream TestQuantityCmp, plus equality across formats.
    #[test]
    fn compares_values_not_formats() {
        let table = [
            ("0", "0", Ordering::Equal),
            ("100m", "50m", Ordering::Greater),
            ("50m", "100m", Ordering::Less),
            ("10000T", "100Gi", Ordering::Greater),
            ("1Gi", "1024Mi", Ordering::Equal),
            ("1", "1000m", Ordering::Equal),
            ("1k", "1e3", Ordering::Equal),
            ("-1", "0", Ordering::Less),
        ];
        for (a, b, want) in table {
            assert_eq!(q(a).cmp_value(&q(b)), want, "{a} vs {b}");
            assert_eq!(q(a).cmp(&q(b)), want, "{a} vs {b}");
            assert_eq!(q(a) == q(b), want == Ordering::Equal, "{a} == {b}");
        }
    }

    #[test]
    fn from_str_and_display_padding() {
        let parsed: Quantity = "250m".parse().unwrap();
        assert_eq!(parsed, q("0.25"));
        assert_eq!(format!("[{parsed:>6}]"), "[  250m]");
        assert_eq!(format!("{parsed:?}"), "Quantity(\"250m\", DecimalSI)");
    }

    /// Serde: a canonical string out; a string, number or null in (upstream UnmarshalJSON,
    /// including TestJSONWhitespace).
    #[test]
    fn serde_round_trip() {
        let table = [
            ("\"500m\"", "500m"),
            ("\" 1\"", "1"),
            ("\"1 \"", "1"),
            ("1", "1"),
            (" 1", "1"),
            ("10", "10"),
            ("-1", "-1"),
            ("0.5", "500m"),
            ("1.5", "1500m"),
            ("-0.25", "-250m"),
            ("18446744073709551615", "18446744073709551615"),
            ("\"1.5Gi\"", "1536Mi"),
            ("null", "0"),
        ];
        for (json, want) in table {
            let got: Quantity = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(got.to_string(), want, "{json}");
            assert_eq!(serde_json::to_string(&got).unwrap(), format!("\"{want}\""));
        }
        let err = serde_json::from_str::<Quantity>("\"abc\"").unwrap_err();
        assert!(err.to_string().contains(QuantityError::FORMAT.message), "{err}");
        let err = serde_json::from_str::<Quantity>("\"1Qi\"").unwrap_err();
        assert!(err.to_string().contains("quantities must match"), "{err}");
        assert!(serde_json::from_str::<Quantity>("true").is_err());
    }

    /// Odd inputs never panic, and whatever parses prints a canonical string that parses
    /// back to the same value and the same string.
    #[test]
    fn odd_inputs_never_panic() {
        let mut inputs: Vec<String> = ODD_INPUTS.iter().map(|s| s.to_string()).collect();
        inputs.push("9".repeat(10_000));
        inputs.push(format!("0.{}1", "0".repeat(10_000)));
        inputs.push(format!("1.{}Ei", "9".repeat(5_000)));
        inputs.push(format!("{}Ei", "9".repeat(200)));
        inputs.push(format!("-{}e-2147483647", "7".repeat(1_000)));
        inputs.extend(pseudo_random_inputs(20_000));
        let mut parsed_count = 0;
        for input in &inputs {
            let Ok(parsed) = Quantity::parse(input) else {
                continue;
            };
            parsed_count += 1;
            let printed = parsed.to_string();
            let reparsed = q(&printed);
            assert_eq!(reparsed, parsed, "{input:?} printed as {printed}");
            assert_eq!(reparsed.to_string(), printed, "{input:?}");
            let _ = (parsed.value(), parsed.milli_value());
            let _ = (parsed.add(&parsed), parsed.sub(&neg(parsed)));
        }
        assert!(parsed_count > 1_000, "only {parsed_count} inputs parsed");
    }

    #[rustfmt::skip] // one entry per line would be 60 lines of noise
    const ODD_INPUTS: &[&str] = &[
        "", " ", "-", "+", ".", "-.", "+.", "..", "e", "E", "1e", "1e+", "1e-", "e5", "-e5",
        "1e2147483647", "-1e2147483647", "1e-2147483647", "1e2147483648", "0e2147483647",
        "1e9223372036854775807", "1e99999999999999999999", "1E-2147483647", "9Ei", "-9Ei",
        "8Ei", "Ki", "Pi", "Ei", "0Pi", ".Ei", "1.Ei", "0.5Ei", "NaN", "inf", "-inf", "0x10",
        "1_000", "--1", "+-1", "1..2", "1Kii", "1KiB", "ä", "1ä", "١", "1\u{0}", "🙂", "1🙂",
        "\u{200b}1", "1e3e3", "1.5.5", "Mi", "m", "nm", "1n1", "1e0", "-0", "-0.0", "+0Ki",
    ];

    /// Deterministic (xorshift) strings of up to 11 characters the scanner cares about.
    fn pseudo_random_inputs(count: usize) -> Vec<String> {
        let alphabet: Vec<char> = "0123456789.+-eEinumkKMGTP xé".chars().collect();
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        (0..count)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (0..state % 12).map(|i| alphabet[((state >> (i * 5)) % alphabet.len() as u64) as usize]).collect()
            })
            .collect()
    }

    #[test]
    fn is_compact() {
        assert_eq!(std::mem::size_of::<Quantity>(), 24);
        let samples = [0, 1, -1, i128::MAX, -i128::MAX, 1 << 64, -(1 << 64), 123 << 70];
        for nanos in samples {
            assert_eq!(Quantity::from_nanos(nanos, DecimalSI).nanos(), nanos);
        }
    }
}
