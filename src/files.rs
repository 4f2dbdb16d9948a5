//! Reading files from outside with a bound: every file Kosumi reads (SGF
//! records for `loadsgf`, `replay` and regression positions; self-play
//! tables for `summarize`) goes through [`read_capped`].
//!
//! A file is read only if it is a regular file, and only up to
//! [`MAX_FILE_BYTES`]: a FIFO, a device (`/dev/zero`), a directory or a
//! larger file is refused before anything is read, so nothing outside can
//! make Kosumi block or allocate without bound.
//!
//! The check is made on the opened handle (`fstat`), not on the path, so
//! the file cannot be swapped between the check and the read; the open
//! itself uses `O_NONBLOCK` on Unix, so that opening a FIFO with no writer
//! returns at once instead of waiting for one.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The largest file read: 64 MiB. The largest real game records (whole
/// databases in one SGF collection) are a few MiB.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// Opening or reading failed.
    Io(io::Error),
    /// Not a regular file: what it is (`directory`, `fifo`, `device`, ...).
    NotRegular(&'static str),
    /// Larger than the cap (the cap in bytes).
    TooLarge(u64),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{}", e.to_string().to_lowercase()),
            ReadError::NotRegular(what) => write!(f, "not a regular file (a {what})"),
            ReadError::TooLarge(cap) => {
                write!(f, "larger than {} MiB, the most Kosumi reads", cap >> 20)
            }
        }
    }
}

impl std::error::Error for ReadError {}

impl From<ReadError> for io::Error {
    fn from(e: ReadError) -> io::Error {
        match e {
            ReadError::Io(e) => e,
            other => io::Error::other(other.to_string()),
        }
    }
}

/// What kind of file the metadata describes, for the error message.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "fifo";
        }
        if t.is_char_device() || t.is_block_device() {
            return "device";
        }
        if t.is_socket() {
            return "socket";
        }
    }
    "special file"
}

/// Opens `path` for reading without blocking on a FIFO.
fn open(path: &Path) -> io::Result<File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    o.open(path)
}

/// Reads the whole regular file at `path` if it holds at most `cap` bytes.
///
/// # Errors
/// [`ReadError::NotRegular`] for anything but a regular file (checked on
/// the open handle before any read), [`ReadError::TooLarge`] for a file
/// over `cap` bytes (by its size, and again while reading, in case it
/// grows), [`ReadError::Io`] when opening or reading fails.
pub fn read_capped_with(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let file = open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta)));
    }
    if meta.len() > cap {
        return Err(ReadError::TooLarge(cap));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge(cap));
    }
    Ok(bytes)
}

/// Reads the whole regular file at `path`, at most [`MAX_FILE_BYTES`].
///
/// # Errors
/// As [`read_capped_with`].
pub fn read_capped(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_capped_with(path, MAX_FILE_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("kosumi-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn regular_files_up_to_the_cap_are_read() {
        let d = scratch("regular");
        let p = d.join("a.sgf");
        std::fs::write(&p, b"(;SZ[9])").unwrap();
        assert_eq!(read_capped(&p).unwrap(), b"(;SZ[9])");
        assert_eq!(read_capped_with(&p, 8).unwrap(), b"(;SZ[9])");
        let e = read_capped_with(&p, 7).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge(7)), "{e:?}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_sparse_file_over_the_cap_is_refused_unread() {
        let d = scratch("sparse");
        let p = d.join("big.sgf");
        let f = File::create(&p).unwrap();
        f.set_len(MAX_FILE_BYTES + 1).unwrap();
        let e = read_capped(&p).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge(MAX_FILE_BYTES)), "{e:?}");
        assert_eq!(e.to_string(), "larger than 64 MiB, the most Kosumi reads");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn directories_and_missing_files_are_refused() {
        let d = scratch("dir");
        let e = read_capped(&d).unwrap_err();
        assert!(matches!(e, ReadError::NotRegular("directory")), "{e:?}");
        assert_eq!(e.to_string(), "not a regular file (a directory)");
        let e = read_capped(&d.join("missing")).unwrap_err();
        assert!(matches!(e, ReadError::Io(_)), "{e:?}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_refused_without_reading() {
        let e = read_capped(Path::new("/dev/zero")).unwrap_err();
        assert!(matches!(e, ReadError::NotRegular("device")), "{e:?}");
        let d = scratch("fifo");
        let p = d.join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(made.success());
        // No writer: a blocking open would wait forever.
        let e = read_capped(&p).unwrap_err();
        assert!(matches!(e, ReadError::NotRegular("fifo")), "{e:?}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
