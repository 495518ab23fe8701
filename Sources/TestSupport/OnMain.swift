/// Runs `body` on the main actor from a test method, which XCTest on Linux calls nonisolated, on the
/// main thread. A synchronous `@MainActor` test method crashes the Linux runner (it casts the method
/// to a nonisolated one); an async one would run as a job on the main queue, and CoreFoundation's run
/// loop does not serve the main queue from inside one of its jobs, which the tests that spin a run loop
/// need. So a `@MainActor` test class keeps its test methods `nonisolated` and forwards each to its
/// isolated body, `try onMain(self) { try $0.body() }`. Traps when called off the main thread.
public func onMain<Test: AnyObject, T: Sendable>(_ test: Test, file: StaticString = #fileID, line: UInt = #line,
                                                 _ body: @MainActor (Test) throws -> T) rethrows -> T {
    // The test object stays on the main thread: it is only handed from the test method to its body.
    nonisolated(unsafe) let test = test
    return try onMain(file: file, line: line) { try body(test) }
}

/// Runs `body` on the main actor from a nonisolated test method (see `onMain(_:_:)`).
public func onMain<T: Sendable>(file: StaticString = #fileID, line: UInt = #line,
                                _ body: @MainActor () throws -> T) rethrows -> T {
    try MainActor.assumeIsolated(body, file: file, line: line)
}
