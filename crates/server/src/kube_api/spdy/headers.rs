//! A SPDY/3 name/value header block, uncompressed: a count, then each name and value with its
//! 32-bit length; several values of one name are joined by NUL (spdystream's
//! `parseHeaderValueBlock` and `writeHeaderValueBlock`).

use super::frame::Malformed;

/// The pairs a block holds, names lowercased, values split at NUL.
pub fn decode(block: &[u8]) -> Result<Vec<(String, String)>, Malformed> {
    let mut at: usize = 0;
    let mut next = |len: usize| -> Result<&[u8], Malformed> {
        let bytes = block.get(at..at.saturating_add(len)).ok_or(Malformed("truncated header block"))?;
        at += len;
        Ok(bytes)
    };
    let length = |bytes: &[u8]| u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize;
    let count = length(next(4)?);
    let mut pairs = Vec::new();
    for _ in 0..count {
        let len = length(next(4)?);
        let name = String::from_utf8_lossy(next(len)?).to_lowercase();
        let len = length(next(4)?);
        let value = String::from_utf8_lossy(next(len)?).into_owned();
        pairs.extend(value.split('\0').map(|v| (name.clone(), v.to_string())));
    }
    Ok(pairs)
}

/// A block of `pairs`.
pub fn encode(pairs: &[(&str, &str)]) -> Vec<u8> {
    let mut out = (pairs.len() as u32).to_be_bytes().to_vec();
    for (name, value) in pairs {
        for text in [name.to_lowercase().as_str(), value] {
            out.extend_from_slice(&(text.len() as u32).to_be_bytes());
            out.extend_from_slice(text.as_bytes());
        }
    }
    out
}

/// The first value of `name`.
pub fn get<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_read_back_and_short_ones_are_refused() {
        let block = encode(&[("streamType", "data"), ("port", "8080"), ("requestID", "0")]);
        let pairs = decode(&block).unwrap();
        assert_eq!(get(&pairs, "streamtype"), Some("data"));
        assert_eq!(get(&pairs, "requestid"), Some("0"));
        assert_eq!(decode(&encode(&[])).unwrap(), vec![]);
        for cut in 0..block.len() {
            assert!(decode(&block[..cut]).is_err());
        }
        // A count far beyond what follows reads no further than the block.
        assert!(decode(&[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]).is_err());
    }
}
