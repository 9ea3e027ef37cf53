//! gzip (RFC 1952) around miniz_oxide's deflate, as Go's compress/gzip writes it at
//! BestCompression: no name, no modification time, then CRC-32 and length.

use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::inflate::decompress_to_vec_with_limit;

/// The most a release may inflate to (a release Secret holds at most 1 MiB compressed).
const MAX_INFLATED_BYTES: usize = 16 << 20;

pub fn compress(data: &[u8]) -> Vec<u8> {
    // ID1 ID2, deflate, no flags, mtime 0, XFL 2 (best compression), OS 255 (unknown).
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255];
    out.extend(compress_to_vec(data, 9));
    out.extend(crc32(data).to_le_bytes());
    out.extend((data.len() as u32).to_le_bytes());
    out
}

/// The data in a gzip stream written by `compress` (or by Go); `None` if it is not one.
pub fn decompress(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < 18 || data[..3] != [0x1f, 0x8b, 8] || data[3] != 0 {
        return None;
    }
    let body = &data[10..data.len() - 8];
    let inflated = decompress_to_vec_with_limit(body, MAX_INFLATED_BYTES).ok()?;
    let crc = u32::from_le_bytes(data[data.len() - 8..data.len() - 4].try_into().ok()?);
    (crc == crc32(&inflated)).then_some(inflated)
}

/// CRC-32 (IEEE), bit by bit: releases are small and this runs once per write.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_checks_its_crc() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        let packed = compress(b"{\"name\":\"hello\"}");
        assert_eq!(&packed[..4], &[0x1f, 0x8b, 8, 0]);
        assert_eq!(decompress(&packed).unwrap(), b"{\"name\":\"hello\"}");
        let mut broken = packed.clone();
        let at = broken.len() - 6;
        broken[at] ^= 1;
        assert_eq!(decompress(&broken), None);
    }
}
