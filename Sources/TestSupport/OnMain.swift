/// Runs `body` on the main actor from a test method, which XCTest on Linux calls nonisolated, on the
/// main thread. A synchronous `@MainActor` test method crashes the Linux runner (it casts the method
/// to a nonisolated one); an async one would run as a job on the main queue, and CoreFoundation's run
/// loop does not serve the main queue from inside one of its jobs, which the tests that spin a run loop
/// need. Swift Testing suites are `@MainActor` instead and need none of this; what is left are XCTest
/// methods with a main-actor step, `try onMain { try … }`. Traps when called off the main thread.
public func onMain<T: Sendable>(file: StaticString = #fileID, line: UInt = #line,
                                _ body: @MainActor () throws -> T) rethrows -> T {
    try MainActor.assumeIsolated(body, file: file, line: line)
}
