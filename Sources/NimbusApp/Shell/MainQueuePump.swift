import CMainQueue
import Foundation
import Glibc

/// Runs the main dispatch queue's work on the calling (main) thread until a condition holds, for
/// commands that wait for an answer without the full-screen loop (one-shot output, the benchmark).
/// It waits on the queue's own file descriptor, as `LiveRunner` does: `RunLoop.main` on Linux does
/// not always drain the main queue, and a wait that missed an answer would hang until its deadline.
public enum MainQueuePump {
    /// Returns when `done()` is true (checked after each batch of work) or at `deadline`.
    @MainActor
    public static func run(until deadline: Date, done: () -> Bool) {
        let handle = _dispatch_get_main_queue_handle_4CF()
        var fds = [pollfd(fd: handle, events: Int16(POLLIN), revents: 0)]
        while !done() {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return }
            fds[0].revents = 0
            let n = poll(&fds, 1, Int32(min(left, 0.05) * 1000) + 1)
            if n > 0, fds[0].revents != 0 {
                var value: UInt64 = 0
                _ = read(handle, &value, 8)
                _dispatch_main_queue_callback_4CF(nil)
            }
        }
    }
}
