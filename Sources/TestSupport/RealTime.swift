import Foundation
import CombineSchedulers
import OpenCombineShim
import LoopbackServer
import Synchronization

// Waiting on real time, for what only real time brings: a loopback server's threads, libcurl's thread,
// a child process, the kernel's read-ahead. Clocks the code takes as a dependency are moved by the test
// (a `TestScheduler`), never waited for. Every wait here has a deadline that fails the test: none
// passes because nothing happened in time.

/// Waits until `condition` holds, looking every 5 ms (`every`); fails the test, naming `what`, when
/// `timeout` passes first. Returns whether the condition held.
@discardableResult
public func waitUntil(_ what: String, timeout: TimeInterval = 10, every interval: TimeInterval = 0.005,
                      file: StaticString = #filePath, line: UInt = #line, _ condition: () throws -> Bool) rethrows -> Bool {
    guard try poll(timeout: timeout, every: interval, condition) else {
        recordFailure("waited \(timeout) s for \(what), in vain", file: file, line: line)
        return false
    }
    return true
}

/// Whether `condition` comes to hold within `timeout`, looking every 5 ms (`every`). Fails nothing:
/// for a step that tries another way when the first does not work, and the helpers whose callers
/// assert the answer.
public func poll(timeout: TimeInterval, every interval: TimeInterval = 0.005, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    let idle = NSCondition()  // never signalled: a timed wait between two looks at the condition
    while try !condition() {
        guard Date() < deadline else { return false }
        idle.lock()
        _ = idle.wait(until: Date().addingTimeInterval(interval))
        idle.unlock()
    }
    return true
}

extension FixtureServer {
    /// Every request made to this server by what happened before the call, and only those: the server
    /// is sent one request more, from a connection of its own; the kernel hands over connections in the
    /// order they were made, so once that request is read and every connection accepted before it is
    /// served and closed, nothing sent before the call can still arrive. This is how a test shows that
    /// something did NOT reach the server, without waiting a while and hoping. Fails the test when the
    /// server does not answer within `timeout`. The extra request is not in the answer.
    public func requestsSoFar(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> [Request] {
        let marker = "/nimbus-test-barrier-\(UUID().uuidString)"
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else {
            recordFailure("no socket for the barrier request: errno \(errno)", file: file, line: line)
            return requests
        }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            recordFailure("the barrier request could not connect: errno \(errno)", file: file, line: line)
            return requests
        }
        let head = Array("GET \(marker) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = head.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        // The answer, to its end, so the server's side closes without a reset.
        var scratch = [UInt8](repeating: 0, count: 4096)
        var timeout = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while read(fd, &scratch, scratch.count) > 0 {}
        shutdown(fd, Int32(SHUT_RDWR))
        waitUntil("the server to read the barrier request and close every connection made before it",
                  timeout: TimeInterval(timeout.tv_sec), file: file, line: line) {
            requests.contains { $0.path == marker } && openConnections == 0
        }
        return requests.filter { $0.path != marker }
    }
}

/// A test scheduler that counts the delayed actions put on it and not yet run, so a test can wait
/// until work on another thread has put its action on the clock before it moves the clock.
public final class CountingScheduler: Sendable {
    public let base: TestSchedulerOf<DispatchQueue>
    private let count = Mutex(0)

    public init(_ base: TestSchedulerOf<DispatchQueue> = DispatchQueue.test) {
        self.base = base
    }

    /// Delayed actions put on the scheduler and not yet run (a repeating one counts until cancelled).
    public var pending: Int { count.withLock { $0 } }

    public func eraseToAnyScheduler() -> AnySchedulerOf<DispatchQueue> {
        let base = base
        return AnySchedulerOf<DispatchQueue>(
            minimumTolerance: { base.minimumTolerance },
            now: { base.now },
            scheduleImmediately: { options, action in base.schedule(options: options, action) },
            delayed: { [self] date, tolerance, options, action in
                count.withLock { $0 += 1 }
                base.schedule(after: date, tolerance: tolerance, options: options) { [self] in
                    count.withLock { $0 -= 1 }
                    action()
                }
            },
            interval: { [self] date, interval, tolerance, options, action in
                count.withLock { $0 += 1 }
                let scheduled = base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
                return AnyCancellable { [self] in
                    count.withLock { $0 -= 1 }
                    scheduled.cancel()
                }
            })
    }
}
