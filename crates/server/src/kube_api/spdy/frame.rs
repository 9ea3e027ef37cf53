//! SPDY/3.1 frames: read from the front of a byte buffer, written as bytes (spdystream's
//! spdy/read.go and spdy/write.go). Header blocks stay compressed here (`headers.rs`).

/// The protocol version in every control frame.
pub const VERSION: u16 = 3;
/// FIN on a DATA, SYN_STREAM, SYN_REPLY or HEADERS frame: the sender's half of the stream ends.
pub const FLAG_FIN: u8 = 0x01;
/// RST_STREAM statuses (spdy/types.go `RstStreamStatus`).
pub const PROTOCOL_ERROR: u32 = 1;
pub const REFUSED_STREAM: u32 = 3;
pub const CANCEL: u32 = 5;

/// One frame. Control frames the session has no use for are `Ignored`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    SynStream {
        stream: u32,
        flags: u8,
        block: Vec<u8>,
    },
    SynReply {
        stream: u32,
        flags: u8,
        block: Vec<u8>,
    },
    RstStream {
        stream: u32,
        status: u32,
    },
    Ping {
        id: u32,
    },
    GoAway {
        last_good: u32,
        status: u32,
    },
    Headers {
        stream: u32,
        flags: u8,
        block: Vec<u8>,
    },
    Data {
        stream: u32,
        flags: u8,
        data: Vec<u8>,
    },
    /// SETTINGS and WINDOW_UPDATE (spdystream keeps no flow-control windows).
    Ignored,
}

/// Bytes that are not SPDY/3.1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed(pub &'static str);

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The frame at the front of `buffer` and the bytes it takes; `None` until it is all there. A
/// frame longer than `max_len` is refused before it is buffered whole.
pub fn parse(buffer: &[u8], max_len: usize) -> Result<Option<(Frame, usize)>, Malformed> {
    if buffer.len() < 8 {
        return Ok(None);
    }
    let (first, second) = (word(buffer, 0), word(buffer, 4));
    let (flags, len) = ((second >> 24) as u8, (second & 0x00ff_ffff) as usize);
    if len > max_len {
        return Err(Malformed("frame too large"));
    }
    if buffer.len() < 8 + len {
        return Ok(None);
    }
    let body = &buffer[8..8 + len];
    let frame = if first & 0x8000_0000 == 0 {
        let stream = first & 0x7fff_ffff;
        if stream == 0 {
            return Err(Malformed("stream id zero is disallowed"));
        }
        Frame::Data { stream, flags, data: body.to_vec() }
    } else {
        if (first >> 16) & 0x7fff != u32::from(VERSION) {
            return Err(Malformed("unsupported SPDY version"));
        }
        control((first & 0xffff) as u16, flags, body)?
    };
    Ok(Some((frame, 8 + len)))
}

/// A control frame's body, by type.
fn control(kind: u16, flags: u8, body: &[u8]) -> Result<Frame, Malformed> {
    let need = |n: usize| if body.len() < n { Err(Malformed("invalid control frame")) } else { Ok(()) };
    let stream = |body: &[u8]| word(body, 0) & 0x7fff_ffff;
    let frame = match kind {
        1 => {
            need(10)?;
            Frame::SynStream { stream: stream(body), flags, block: body[10..].to_vec() }
        }
        2 => {
            need(4)?;
            Frame::SynReply { stream: stream(body), flags, block: body[4..].to_vec() }
        }
        3 => {
            need(8)?;
            Frame::RstStream { stream: stream(body), status: word(body, 4) }
        }
        6 => {
            need(4)?;
            Frame::Ping { id: word(body, 0) }
        }
        7 => {
            need(8)?;
            Frame::GoAway { last_good: stream(body), status: word(body, 4) }
        }
        8 => {
            need(4)?;
            Frame::Headers { stream: stream(body), flags, block: body[4..].to_vec() }
        }
        4 | 9 => Frame::Ignored,
        _ => return Err(Malformed("unknown frame type")),
    };
    Ok(frame)
}

fn control_frame(kind: u16, flags: u8, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + body.len());
    out.extend_from_slice(&(0x8000_0000 | u32::from(VERSION) << 16 | u32::from(kind)).to_be_bytes());
    out.extend_from_slice(&(u32::from(flags) << 24 | body.len() as u32).to_be_bytes());
    out.extend_from_slice(body);
    out
}

impl Frame {
    /// The frame's bytes. A DATA frame's payload must fit its 24-bit length (callers split).
    pub fn encode(&self) -> Vec<u8> {
        let ids = |a: u32, b: u32| [a.to_be_bytes(), b.to_be_bytes()].concat();
        match self {
            Frame::SynStream { stream, flags, block } => {
                let body = [&stream.to_be_bytes()[..], &[0; 6], block].concat();
                control_frame(1, *flags, &body)
            }
            Frame::SynReply { stream, flags, block } => {
                control_frame(2, *flags, &[&stream.to_be_bytes()[..], block].concat())
            }
            Frame::Headers { stream, flags, block } => {
                control_frame(8, *flags, &[&stream.to_be_bytes()[..], block].concat())
            }
            Frame::RstStream { stream, status } => control_frame(3, 0, &ids(*stream, *status)),
            Frame::Ping { id } => control_frame(6, 0, &id.to_be_bytes()),
            Frame::GoAway { last_good, status } => control_frame(7, 0, &ids(*last_good, *status)),
            Frame::Data { stream, flags, data } => {
                let mut out = Vec::with_capacity(8 + data.len());
                out.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
                out.extend_from_slice(&(u32::from(*flags) << 24 | (data.len() as u32 & 0x00ff_ffff)).to_be_bytes());
                out.extend_from_slice(data);
                out
            }
            Frame::Ignored => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_read_back_as_written() {
        let frames = [
            Frame::SynStream { stream: 1, flags: 0, block: vec![1, 2, 3] },
            Frame::SynReply { stream: 1, flags: 0, block: vec![9] },
            Frame::RstStream { stream: 3, status: CANCEL },
            Frame::Ping { id: 7 },
            Frame::GoAway { last_good: 5, status: 0 },
            Frame::Headers { stream: 3, flags: FLAG_FIN, block: vec![] },
            Frame::Data { stream: 3, flags: FLAG_FIN, data: b"GET / HTTP/1.1\r\n\r\n".to_vec() },
        ];
        let bytes: Vec<u8> = frames.iter().flat_map(Frame::encode).collect();
        let mut at = 0;
        for frame in &frames {
            let (read, used) = parse(&bytes[at..], 1 << 20).unwrap().unwrap();
            assert_eq!(&read, frame);
            at += used;
        }
        assert_eq!(at, bytes.len());
        assert_eq!(parse(&bytes[..5], 1 << 20), Ok(None));
    }

    #[test]
    fn frames_are_the_bytes_spdystream_writes() {
        // A PING: control bit, version 3, type 6; flags 0, length 4; the id.
        assert_eq!(Frame::Ping { id: 1 }.encode(), [0x80, 3, 0, 6, 0, 0, 0, 4, 0, 0, 0, 1]);
        // An empty DATA frame with FIN on stream 3.
        assert_eq!(Frame::Data { stream: 3, flags: FLAG_FIN, data: vec![] }.encode(), [0, 0, 0, 3, 1, 0, 0, 0]);
        let reply = Frame::SynReply { stream: 1, flags: 0, block: vec![0xaa] }.encode();
        assert_eq!(reply, [0x80, 3, 0, 2, 0, 0, 0, 5, 0, 0, 0, 1, 0xaa]);
    }

    #[test]
    fn hostile_bytes_are_refused_not_panicked_on() {
        let cases: [&[u8]; 5] = [
            &[0x80, 2, 0, 1, 0, 0, 0, 0],       // SPDY/2
            &[0x80, 3, 0, 1, 0, 0, 0, 2, 0, 0], // a SYN_STREAM too short
            &[0x80, 3, 0x7f, 0x7f, 0, 0, 0, 0], // an unknown type
            &[0, 0, 0, 0, 0, 0, 0, 0],          // DATA on stream 0
            &[0, 0, 0, 1, 0, 0xff, 0xff, 0xff], // longer than allowed
        ];
        for bytes in cases {
            assert!(parse(bytes, 1 << 16).is_err(), "{bytes:?}");
        }
        for cut in 0..16 {
            let _ = parse(&[0x80, 3, 0, 3, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 5][..cut], 1 << 16);
        }
    }
}
