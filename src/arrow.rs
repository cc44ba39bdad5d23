//! Arrow interop (in progress).
