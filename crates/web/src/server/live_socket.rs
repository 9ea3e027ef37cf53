//! A WebSocket that stays open: each text message goes to a callback, and a dropped connection
//! is reopened after a back-off that doubles up to a ceiling (so a restarting server is not
//! hammered) and resets once a connection delivers a message. `close` stops it for good.

use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// The first wait before reopening, and the longest.
const FIRST_RETRY_MS: u32 = 500;
const LONGEST_RETRY_MS: u32 = 30_000;

/// The wait before reconnect attempt `attempt` (0-based): 0.5 s, 1 s, 2 s … up to 30 s.
pub fn retry_delay_ms(attempt: u32) -> u32 {
    FIRST_RETRY_MS.saturating_mul(1u32 << attempt.min(16)).min(LONGEST_RETRY_MS)
}

/// Whether the socket is connected, for a status line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkState {
    Connecting,
    Open,
    Closed,
}

type OnMessage = Rc<dyn Fn(String)>;
type OnState = Rc<dyn Fn(LinkState)>;

struct Inner {
    url: String,
    on_message: OnMessage,
    on_state: OnState,
    socket: Option<web_sys::WebSocket>,
    attempt: u32,
    stopped: bool,
    // Kept alive as long as the socket may call them.
    handlers: Vec<Closure<dyn FnMut(web_sys::MessageEvent)>>,
    close_handler: Option<Closure<dyn FnMut(web_sys::CloseEvent)>>,
}

/// A handle to a self-reopening socket; clone it freely, `close` from any clone.
#[derive(Clone)]
pub struct LiveSocket(Rc<RefCell<Inner>>);

impl LiveSocket {
    /// Opens `url` (ws:// or wss://) and keeps it open until `close`.
    pub fn open(
        url: String,
        on_message: impl Fn(String) + 'static,
        on_state: impl Fn(LinkState) + 'static,
    ) -> LiveSocket {
        let inner = Inner {
            url,
            on_message: Rc::new(on_message),
            on_state: Rc::new(on_state),
            socket: None,
            attempt: 0,
            stopped: false,
            handlers: Vec::new(),
            close_handler: None,
        };
        let live = LiveSocket(Rc::new(RefCell::new(inner)));
        live.connect();
        live
    }

    /// Sends a text message now; false when the socket is not open (the caller says so).
    pub fn send(&self, text: &str) -> bool {
        let inner = self.0.borrow();
        inner
            .socket
            .as_ref()
            .filter(|socket| socket.ready_state() == web_sys::WebSocket::OPEN)
            .is_some_and(|socket| socket.send_with_str(text).is_ok())
    }

    /// Closes the socket and stops reopening it.
    pub fn close(&self) {
        let socket = {
            let mut inner = self.0.borrow_mut();
            inner.stopped = true;
            inner.socket.take()
        };
        if let Some(socket) = socket {
            socket.set_onclose(None);
            socket.set_onmessage(None);
            socket.set_onopen(None);
            let _ = socket.close();
        }
        // The handlers hold clones of this handle; dropping them breaks the cycle. Later, not
        // now, because `close` may be running inside one of them.
        let this = self.clone();
        leptos::prelude::set_timeout(
            move || {
                let mut inner = this.0.borrow_mut();
                inner.handlers.clear();
                inner.close_handler = None;
            },
            std::time::Duration::ZERO,
        );
    }

    fn connect(&self) {
        let (url, on_state) = {
            let inner = self.0.borrow();
            if inner.stopped {
                return;
            }
            (inner.url.clone(), inner.on_state.clone())
        };
        on_state(LinkState::Connecting);
        let Ok(socket) = web_sys::WebSocket::new(&url) else {
            self.schedule_reconnect();
            return;
        };
        let on_message = self.message_handler();
        let on_open = self.open_handler();
        let this = self.clone();
        let on_close = Closure::<dyn FnMut(web_sys::CloseEvent)>::new(move |_| this.schedule_reconnect());
        socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        let mut inner = self.0.borrow_mut();
        inner.handlers = vec![on_message, on_open];
        inner.close_handler = Some(on_close);
        inner.socket = Some(socket);
    }

    fn message_handler(&self) -> Closure<dyn FnMut(web_sys::MessageEvent)> {
        let this = self.clone();
        Closure::new(move |event: web_sys::MessageEvent| {
            this.0.borrow_mut().attempt = 0;
            let callback = this.0.borrow().on_message.clone();
            if let Some(text) = event.data().as_string() {
                callback(text);
            }
        })
    }

    fn open_handler(&self) -> Closure<dyn FnMut(web_sys::MessageEvent)> {
        let this = self.clone();
        Closure::new(move |_| {
            let on_state = this.0.borrow().on_state.clone();
            on_state(LinkState::Open);
        })
    }

    fn schedule_reconnect(&self) {
        let (delay, on_state) = {
            let mut inner = self.0.borrow_mut();
            if inner.stopped {
                return;
            }
            inner.socket = None;
            let delay = retry_delay_ms(inner.attempt);
            inner.attempt = inner.attempt.saturating_add(1);
            (delay, inner.on_state.clone())
        };
        on_state(LinkState::Closed);
        let this = self.clone();
        leptos::prelude::set_timeout(move || this.connect(), std::time::Duration::from_millis(delay.into()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_off_doubles_to_a_ceiling() {
        assert_eq!(retry_delay_ms(0), 500);
        assert_eq!(retry_delay_ms(1), 1000);
        assert_eq!(retry_delay_ms(3), 4000);
        assert_eq!(retry_delay_ms(6), 30_000);
        assert_eq!(retry_delay_ms(u32::MAX), 30_000);
    }
}
