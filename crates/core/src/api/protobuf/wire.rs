//! The protobuf wire format: a message's bytes as (field number, value) pairs, and packed varints.

/// One field's value as it lies on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wire<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 1.
    Fixed64(u64),
    /// Wire type 2: strings, bytes, messages, packed repeated scalars.
    Bytes(&'a [u8]),
    /// Wire type 5.
    Fixed32(u32),
}

impl Wire<'_> {
    /// The wire type's number, for error messages.
    pub fn type_number(&self) -> u64 {
        match self {
            Wire::Varint(_) => 0,
            Wire::Fixed64(_) => 1,
            Wire::Bytes(_) => 2,
            Wire::Fixed32(_) => 5,
        }
    }
}

/// The fields of a message, in wire order; stops at the first malformed one.
pub(super) struct Fields<'a> {
    rest: &'a [u8],
}

/// Reads a message's fields.
pub(super) fn fields(bytes: &[u8]) -> Fields<'_> {
    Fields { rest: bytes }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u32, Wire<'a>), String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let item = field(&mut self.rest);
        if item.is_err() {
            self.rest = &[];
        }
        Some(item)
    }
}

/// Reads one field (its key, then its value) off the front of `rest`.
fn field<'a>(rest: &mut &'a [u8]) -> Result<(u32, Wire<'a>), String> {
    let key = varint(rest)?;
    let num = u32::try_from(key >> 3).map_err(|_| format!("field number {} out of range", key >> 3))?;
    let wire = match key & 7 {
        0 => Wire::Varint(varint(rest)?),
        1 => Wire::Fixed64(u64::from_le_bytes(take(rest, 8)?.try_into().unwrap())),
        2 => {
            let len = usize::try_from(varint(rest)?).map_err(|_| "length out of range".to_string())?;
            Wire::Bytes(take(rest, len)?)
        }
        5 => Wire::Fixed32(u32::from_le_bytes(take(rest, 4)?.try_into().unwrap())),
        other => return Err(format!("field {num}: unsupported wire type {other}")),
    };
    Ok((num, wire))
}

/// Reads a base-128 varint off the front of `rest`.
pub(super) fn varint(rest: &mut &[u8]) -> Result<u64, String> {
    let mut value = 0u64;
    for (i, byte) in rest.iter().enumerate().take(10) {
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            *rest = &rest[i + 1..];
            return Ok(value);
        }
    }
    Err("truncated or overlong varint".to_string())
}

/// Takes `len` bytes off the front of `rest`.
fn take<'a>(rest: &mut &'a [u8], len: usize) -> Result<&'a [u8], String> {
    if rest.len() < len {
        return Err(format!("{len} bytes wanted, {} left", rest.len()));
    }
    let (head, tail) = rest.split_at(len);
    *rest = tail;
    Ok(head)
}

/// The varints of a packed repeated field.
pub(super) fn packed_varints(mut bytes: &[u8]) -> Result<Vec<u64>, String> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        out.push(varint(&mut bytes)?);
    }
    Ok(out)
}
