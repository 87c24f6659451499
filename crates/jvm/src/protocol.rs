//! The orchestrator–worker protocol: length-prefixed `postcard` frames over
//! the worker's stdin (requests) and a private copy of its stdout
//! (responses). A frame is a little-endian `u32` byte count and the
//! encoded message.

use std::io::{Read, Write};

use exec::{ExecConfig, ExecutionResult};
use serde::{Deserialize, Serialize};
use testcase::TestCase;

/// Largest frame accepted (a result with long captured output fits easily).
pub const MAX_FRAME: usize = 64 << 20;

/// A message to the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Execute one test case.
    Execute {
        /// Sequence number, echoed in the [`Response::Result`]; increasing per worker.
        seq: u64,
        /// The test case, already validated against the class path.
        test: TestCase,
        /// Limits of the execution and the mutant to activate.
        config: ExecConfig,
    },
    /// Exit cleanly.
    Shutdown,
}

/// A borrowed [`Request`] for sending without cloning the test case; it
/// encodes to the same bytes (same variants, same field order).
#[derive(Debug, Clone, Copy, Serialize)]
pub enum RequestRef<'a> {
    /// See [`Request::Execute`].
    Execute {
        /// See [`Request::Execute`]'s `seq`.
        seq: u64,
        /// See [`Request::Execute`]'s `test`.
        test: &'a TestCase,
        /// See [`Request::Execute`]'s `config`.
        config: &'a ExecConfig,
    },
    /// See [`Request::Shutdown`].
    Shutdown,
}

/// A message from the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Response {
    /// The JVM is up.
    Ready {
        /// How long the worker took to start its JVM and resolve its handles, in microseconds.
        startup_micros: u64,
        /// Which mechanisms of the kernel sandbox hold in this worker.
        confinement: crate::sandbox::Confinement,
    },
    /// The result of request `seq`.
    Result {
        /// The sequence number of the [`Request::Execute`].
        seq: u64,
        /// What the execution did.
        result: Box<ExecutionResult>,
    },
    /// The result of request `seq`, which ran in a JVM that can no longer
    /// run tests faithfully (`runner::Runner::take_poisoned`): the pool
    /// may replace the worker and run the test again in a new one.
    Poisoned {
        /// The sequence number of the [`Request::Execute`].
        seq: u64,
        /// What the test met (the `NoClassDefFoundError` and its cause).
        reason: String,
        /// What the execution did in the poisoned JVM.
        result: Box<ExecutionResult>,
    },
    /// The worker cannot go on (e.g. the JVM could not be created).
    Fatal {
        /// Why, as the worker's error prints it.
        message: String,
    },
}

/// Frame errors.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// Reading or writing the pipe failed.
    #[error("pipe error: {0}")]
    Io(#[from] std::io::Error),
    /// A frame does not encode or decode as a message.
    #[error("bad frame: {0}")]
    Decode(#[from] postcard::Error),
    /// A frame announces more than [`MAX_FRAME`] bytes.
    #[error("frame of {0} bytes exceeds the limit")]
    TooLarge(usize),
}

/// Writes one frame and flushes.
///
/// # Errors
/// [`FrameError`] on I/O or encoding failure.
pub fn write_frame<W: Write, T: Serialize>(w: &mut W, msg: &T) -> Result<(), FrameError> {
    write_frame_unflushed(w, msg)?;
    w.flush()?;
    Ok(())
}

/// Writes one frame into `w` without flushing (for pipelined requests).
///
/// # Errors
/// [`FrameError`] on I/O or encoding failure.
pub fn write_frame_unflushed<W: Write, T: Serialize>(w: &mut W, msg: &T) -> Result<(), FrameError> {
    let bytes = postcard::to_stdvec(msg)?;
    w.write_all(&(bytes.len() as u32).to_le_bytes())?;
    w.write_all(&bytes)?;
    Ok(())
}

/// Reads one frame; `Ok(None)` at a clean end of stream.
///
/// # Errors
/// [`FrameError`] on I/O errors, oversized or undecodable frames.
pub fn read_frame<R: Read, T: for<'de> Deserialize<'de>>(r: &mut R) -> Result<Option<T>, FrameError> {
    let mut len = [0u8; 4];
    match r.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e.into()),
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_FRAME {
        return Err(FrameError::TooLarge(len));
    }
    let mut buf = vec![0u8; len];
    r.read_exact(&mut buf)?;
    Ok(Some(postcard::from_bytes(&buf)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_end_cleanly() {
        let mut buf = Vec::new();
        write_frame(&mut buf, &Request::Shutdown).unwrap();
        write_frame(&mut buf, &Response::Ready { startup_micros: 7, confinement: Default::default() }).unwrap();
        let mut r = &buf[..];
        assert_eq!(read_frame::<_, Request>(&mut r).unwrap(), Some(Request::Shutdown));
        assert_eq!(
            read_frame::<_, Response>(&mut r).unwrap(),
            Some(Response::Ready { startup_micros: 7, confinement: Default::default() })
        );
        assert_eq!(read_frame::<_, Response>(&mut r).unwrap(), None);
    }

    /// The worker decodes test cases with their assertions (a contract's
    /// witness keeps them): a field the encoder skips would shift the rest.
    #[test]
    fn a_test_with_every_kind_of_assertion_round_trips() {
        use testcase::assertion::{Assertion, AssertionKind, Literal};
        use testcase::{Primitive, VarId};
        let mut test = TestCase::default();
        let throws = |message: Option<&str>| AssertionKind::Throws {
            exception: model::names::BinaryName::new("java.lang.Error"),
            message: message.map(str::to_owned),
        };
        let kinds = [
            throws(None),
            throws(Some("why")),
            AssertionKind::ArrayElements(vec![Literal::Primitive(Primitive::Int(1))]),
            AssertionKind::ArrayLength(2),
            AssertionKind::Value(Literal::String("x".into())),
        ];
        test.assertions = kinds.into_iter().map(|kind| Assertion { var: VarId(0), kind }).collect();
        let request = Request::Execute { seq: 1, test, config: ExecConfig::default() };
        let mut buf = Vec::new();
        write_frame(&mut buf, &request).unwrap();
        assert_eq!(read_frame::<_, Request>(&mut &buf[..]).unwrap(), Some(request));
    }

    #[test]
    fn a_borrowed_request_encodes_like_the_owned_one() {
        let test = TestCase::default();
        let config = ExecConfig::default();
        let owned = Request::Execute { seq: 9, test: test.clone(), config: config.clone() };
        let borrowed = RequestRef::Execute { seq: 9, test: &test, config: &config };
        assert_eq!(postcard::to_stdvec(&owned).unwrap(), postcard::to_stdvec(&borrowed).unwrap());
        assert_eq!(
            postcard::to_stdvec(&Request::Shutdown).unwrap(),
            postcard::to_stdvec(&RequestRef::Shutdown).unwrap()
        );
    }
}
