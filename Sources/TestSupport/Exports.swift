// The loopback server is its own module (the benchmark serves fixtures with it too, without XCTest);
// tests get it with TestSupport.
@_exported import LoopbackServer
