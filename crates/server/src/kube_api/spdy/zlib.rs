//! The two zlib streams a SPDY connection compresses its header blocks with, one per direction,
//! each flushed at the end of every block. The client's (Go's `zlib.NewWriterLevelDict`) is
//! inflated with the SPDY dictionary preset; the server's own is written as stored blocks, which
//! Go's `zlib.NewReaderDict` reads (it takes a stream without a dictionary id as well).

use super::dictionary::DICTIONARY;
use super::frame::Malformed;
use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};

/// The deflate window: the ring the output is written into, dictionary first.
const WINDOW: usize = 32 * 1024;
/// The Adler-32 of the SPDY dictionary: the id a client's zlib header names.
const DICTIONARY_ID: u32 = 0xe3c6_a7c2;

/// The client's header stream.
pub struct Inflater {
    /// The zlib header's bytes until it is whole (2, or 6 with a dictionary id).
    header: Vec<u8>,
    started: bool,
    state: Box<DecompressorOxide>,
    ring: Box<[u8]>,
    at: usize,
}

impl Default for Inflater {
    fn default() -> Self {
        let mut ring = vec![0; WINDOW].into_boxed_slice();
        ring[..DICTIONARY.len()].copy_from_slice(DICTIONARY);
        Inflater { header: Vec::new(), started: false, state: Box::default(), ring, at: DICTIONARY.len() }
    }
}

impl Inflater {
    /// The bytes one header block holds; more than `limit` of them is refused.
    pub fn inflate(&mut self, mut input: &[u8], limit: usize) -> Result<Vec<u8>, Malformed> {
        if !self.started {
            input = self.zlib_header(input)?;
        }
        let mut out = Vec::new();
        loop {
            let flags = inflate_flags::TINFL_FLAG_HAS_MORE_INPUT;
            let (status, used, written) = decompress(&mut self.state, input, &mut self.ring, self.at, flags);
            out.extend_from_slice(&self.ring[self.at..self.at + written]);
            self.at = (self.at + written) & (WINDOW - 1);
            input = &input[used..];
            if out.len() > limit {
                return Err(Malformed("header block too large"));
            }
            match status {
                TINFLStatus::HasMoreOutput if used + written > 0 => {}
                TINFLStatus::NeedsMoreInput | TINFLStatus::Done => return Ok(out),
                _ => return Err(Malformed("invalid header compression")),
            }
        }
    }

    /// Reads the zlib header off the front of the first block(s): deflate, and if it names a
    /// dictionary, SPDY's.
    fn zlib_header<'a>(&mut self, input: &'a [u8]) -> Result<&'a [u8], Malformed> {
        let take = input.len().min(6 - self.header.len());
        self.header.extend_from_slice(&input[..take]);
        let [cmf, flg, ..] = self.header[..] else { return Ok(&[]) };
        if cmf & 0x0f != 8 || (u16::from(cmf) << 8 | u16::from(flg)) % 31 != 0 {
            return Err(Malformed("invalid zlib header"));
        }
        let wanted = if flg & 0x20 != 0 { 6 } else { 2 };
        if self.header.len() < wanted {
            return Ok(&[]);
        }
        if wanted == 6
            && u32::from_be_bytes([self.header[2], self.header[3], self.header[4], self.header[5]]) != DICTIONARY_ID
        {
            return Err(Malformed("unknown zlib dictionary"));
        }
        self.started = true;
        // What was taken past the header belongs to the deflate stream.
        let past = self.header.len() - wanted;
        Ok(&input[take - past..])
    }
}

/// The server's header stream: each block stored (uncompressed) deflate blocks, then the empty
/// stored block a sync flush writes. Go's inflater hands out a stored block's bytes only when
/// the next block begins, so without that marker a header block would wait on the next frame.
#[derive(Default)]
pub struct Deflater {
    started: bool,
}

impl Deflater {
    pub fn deflate(&mut self, block: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(block.len() + 8);
        if !self.started {
            // CMF 0x78 (deflate, 32 KiB window), FLG 0x01: no dictionary, check bits.
            out.extend_from_slice(&[0x78, 0x01]);
            self.started = true;
        }
        for chunk in block.chunks(usize::from(u16::MAX)).chain([&[][..]]) {
            let len = chunk.len() as u16;
            // BFINAL 0, BTYPE 00, padded to the byte; LEN and its complement, little-endian.
            // The last, empty, is the sync flush's marker (00 00 00 ff ff).
            out.push(0);
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&(!len).to_le_bytes());
            out.extend_from_slice(chunk);
        }
        out
    }
}

/// Two header blocks as Python's zlib (level 9, the SPDY dictionary, a sync flush after each)
/// compresses them, as Go's spdy framer does, the second referring back to the first:
/// `streamtype: error`, then `streamtype: data`, each with `port: 8080` and `requestid: 0`.
#[cfg(test)]
pub(crate) const CLIENT_BLOCKS: [&str; 2] = [
    "78f9e3c6a7c202253a703a2b294a4dcc851625aca9a0808614cb45e01c6061606100a4398b20d198094ade8c0600000000ffff",
    "c2aa19540e2512d60b000000ffff",
];

#[cfg(test)]
pub(crate) fn hex(text: &str) -> Vec<u8> {
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dictionary_is_spdys() {
        let (mut a, mut b) = (1u32, 0u32);
        for &byte in DICTIONARY.iter() {
            a = (a + u32::from(byte)) % 65521;
            b = (b + a) % 65521;
        }
        assert_eq!(b << 16 | a, DICTIONARY_ID);
    }

    #[test]
    fn a_block_compressed_with_the_dictionary_inflates() {
        let mut inflater = Inflater::default();
        let first = inflater.inflate(&hex(CLIENT_BLOCKS[0]), 1 << 16).unwrap();
        let text = String::from_utf8_lossy(&first);
        assert!(text.contains("streamtype") && text.contains("error") && text.contains("8080"), "{text:?}");
        let second = inflater.inflate(&hex(CLIENT_BLOCKS[1]), 1 << 16).unwrap();
        assert!(String::from_utf8_lossy(&second).contains("data"));
        // Byte by byte, the same.
        let mut slow = Inflater::default();
        let bytes: Vec<u8> = hex(CLIENT_BLOCKS[0]).iter().flat_map(|b| slow.inflate(&[*b], 1 << 16).unwrap()).collect();
        assert_eq!(bytes, first);
    }

    #[test]
    fn stored_blocks_inflate_and_garbage_is_refused() {
        let mut deflater = Deflater::default();
        let mut inflater = Inflater::default();
        let first = deflater.deflate(b"\0\0\0\0");
        assert_eq!(first, [0x78, 0x01, 0, 4, 0, 0xfb, 0xff, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]);
        assert_eq!(inflater.inflate(&first, 1 << 16).unwrap(), [0; 4]);
        for block in [&b""[..], b"name and value", &[7; 70_000]] {
            assert_eq!(inflater.inflate(&deflater.deflate(block), 1 << 20).unwrap(), block);
        }
        assert!(Inflater::default().inflate(&[0x78, 0x9c, 0xff, 0xff, 0xff], 1 << 16).is_err());
        assert!(Inflater::default().inflate(&[0x12, 0x34], 1 << 16).is_err());
        assert!(Inflater::default().inflate(&[0x78, 0xbb, 1, 2, 3, 4], 1 << 16).is_err());
    }
}
