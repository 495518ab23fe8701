import CMainQueue
import Foundation
import NimbusCurses
import NimbusData
import NimbusTerminal
import Glibc

/// Watches a live session: the loop (its keys and frames), resizes, and the way out.
@MainActor
protocol LiveObserver: AnyObject {
    func started(_ loop: AppLoop, size: Size)
    func resized(to size: Size)
    /// The app is exiting; the terminal is already restored.
    func exiting()
}

/// Runs the app on the real terminal: keys read on the main thread, signals as dispatch sources on
/// the main queue.
@MainActor
final class LiveRunner {
    private let backend: NCursesBackend
    private var loop: AppLoop!
    private var parser = KeyParser()
    private var sources: [DispatchSourceProtocol] = []
    private var escapeTimer: DispatchWorkItem?
    private var restored = false
    /// The app's network, which knows whether libcurl could be used.
    private let network: LiveHTTPClient?
    /// Watches the session (a tape being recorded); nil when nothing does.
    private let observer: LiveObserver?

    init(backend: NCursesBackend, network: LiveHTTPClient? = nil, observer: LiveObserver? = nil) {
        self.backend = backend
        self.network = network
        self.observer = observer
    }

    /// Takes the terminal, starts the app and never returns.
    ///
    /// Signal sources are set up before the terminal is taken, so a SIGTERM or SIGHUP that comes
    /// early still finds the terminal restored on the way out.
    /// With `askBackground`, the terminal is asked for its background colour (OSC 11) as the app
    /// starts; the first frame does not wait for the answer: an answer within 50 ms is handed to
    /// `useBackground` and the frame is drawn again in that theme, a later one is ignored.
    func run(askBackground: Bool = false, useBackground: @escaping (TerminalBackground?) -> Void = { _ in },
             makeCoordinator: () -> AppCoordinator) throws -> Never {
        listenToSignals()
        // A SIGBUS from a mapped file that was truncated names the file.
        CrashGuard.install(describingAddress: { MappedFiles.path(containing: $0) })
        try backend.start()
        if askBackground && backend.supportsColor {
            backend.requestBackgroundColor()
            backgroundAsked = (DispatchTime.now().uptimeNanoseconds, useBackground)
        }
        let coordinator = makeCoordinator()
        let backend = self.backend
        // The live clock is the main queue: its work runs between turns, not between keys.
        loop = AppLoop(coordinator: coordinator, backend: backend, size: { backend.size })
        observer?.started(loop, size: backend.size)
        coordinator.onSuspendRequested = { [weak self] in self?.suspend() }
        coordinator.start()
        loop.draw()
        StartupPaging.end()
        warmUp(coordinator)
        runLoop()
    }

    /// When the terminal was asked for its background, and who takes the answer; nil once answered
    /// (or never asked).
    private var backgroundAsked: (at: UInt64, use: (TerminalBackground?) -> Void)?

    /// An OSC 11 answer the parser set aside: within 50 ms of the question it sets the theme, and
    /// the whole screen is drawn again; later, it is too late (the app stays dark, as promised).
    private func takeBackgroundAnswer() {
        guard let asked = backgroundAsked,
              let answer = parser.terminalAnswers.last(where: { $0.hasPrefix("11;") }) else { return }
        backgroundAsked = nil
        let elapsed = DispatchTime.now().uptimeNanoseconds - asked.at
        guard elapsed <= UInt64(TerminalBackground.timeoutMilliseconds) * 1_000_000,
              let background = TerminalBackground.parse(answer) else { return }
        asked.use(background)
        loop.needsDisplay.setFullRedraw()
    }

    /// After the first frame, does the one-off work the first keystrokes would otherwise pay for:
    /// in the background what touches only shared data (folding tables for names in other scripts),
    /// on the main thread what draws.
    private func warmUp(_ coordinator: AppCoordinator) {
        let warm = coordinator.warmUp
        // The rehearsal of typing draws a screen, so it runs on the main thread, after the first
        // frame. Opening its search field needs nothing from the background, so it is done at
        // once; typing searches, so it waits until the background has sorted the own names: made
        // by the rehearsal, they would keep the main thread from the first keys for tens of ms.
        let rehearsal = coordinator.typingRehearsal()
        // A thread of its own at a lower priority (nice 10): on two busy cores the scheduler gives a
        // keystroke's main thread the core first, and the warm-up takes what is left.
        let thread = Thread {
            // On Linux the nice value is the thread's own, and 0 names the calling thread.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            warm.run(rankingPrepared: { DispatchQueue.main.async { MainActor.assumeIsolated { rehearsal.type() } } })
        }
        thread.name = "nimbus.warm-up"
        thread.start()
        rehearsal.openField()
    }

    // MARK: Input

    /// The main thread waits for keys and for work sent to the main queue in one `poll`, and handles
    /// keys itself: a keystroke goes from the terminal to its frame on one thread, with no hand-over
    /// from dispatch's event thread to a worker that drains the main queue (as `dispatchMain()` does).
    private func runLoop() -> Never {
        let mainQueue = _dispatch_get_main_queue_handle_4CF()
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: mainQueue, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            // A frame asked for while the last one was drawn (by `frameShown`) is drawn on the next turn.
            let n = poll(&fds, 2, loop.needsDisplay.isSet ? 0 : -1)
            if n < 0 {
                if errno == EINTR { continue }
                exit(status: 1)
            }
            // stdin stays blocking (on a terminal it shares its file status with stdout, and
            // ncurses does not retry writes that fail with EAGAIN); poll said bytes are waiting,
            // so readInput's single read doesn't block.
            if fds[0].revents != 0 { readInput() }
            if fds[1].revents != 0 {
                var value: UInt64 = 0
                _ = read(mainQueue, &value, 8)
                _dispatch_main_queue_callback_4CF(nil)
            }
            // Whatever ran (an answer from the network, a timer, a signal) may have asked for a frame.
            loop.drawIfNeeded()
        }
    }

    private func readInput() {
        var bytes = [UInt8](repeating: 0, count: 4096)
        var keys: [Key] = []
        let n = read(STDIN_FILENO, &bytes, bytes.count)
        if n > 0 {
            keys = parser.feed(Array(bytes[0..<n]))
            takeBackgroundAnswer()
        } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
            exit(status: 0) // stdin closed: the terminal went away
        }
        deliver(keys)
        escapeTimer?.cancel()
        // A lone ESC is Esc after 25 ms of silence; a paste whose end marker is lost ends after 300 ms.
        if parser.hasPendingEscape || parser.isInPaste {
            let inPaste = parser.isInPaste
            let item = DispatchWorkItem { [weak self] in
                guard let self else { return }
                self.deliver(inPaste ? self.parser.endUnterminatedPaste() : self.parser.flushPending())
            }
            escapeTimer = item
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(inPaste ? 300 : 25), execute: item)
        }
    }

    private func deliver(_ keys: [Key]) {
        guard !keys.isEmpty else { return }
        // The loop draws the keys' frame at once rather than on the next turn of the main queue: a
        // keystroke's frame goes out without waiting for a queue hop (~0.2 ms here).
        if loop.handle(keys) { exit(status: 0) }
    }

    // MARK: Signals

    private func listenToSignals() {
        let handlers: [(Int32, () -> Void)] = [
            (SIGWINCH, { [weak self] in self?.resized() }),
            (SIGINT, { [weak self] in self?.end(by: SIGINT) }),
            (SIGTERM, { [weak self] in self?.end(by: SIGTERM) }),
            (SIGHUP, { [weak self] in self?.end(by: SIGHUP) }),
            (SIGTSTP, { [weak self] in self?.suspend() }),
            (SIGCONT, { [weak self] in self?.resumed() }),
        ]
        for (sig, handler) in handlers {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            source.setEventHandler(handler: handler)
            source.resume()
            sources.append(source)
        }
    }

    private func resized() {
        backend.updateSize()
        observer?.resized(to: backend.size)
        loop?.invalidate()
        loop?.draw()
    }

    private func suspend() {
        backend.suspend()
        CrashGuard.uninstall()
        // Stop the whole job, as the terminal's own Ctrl-Z would. SIGTSTP itself is taken by the
        // dispatch source, so stop with SIGSTOP; the shell's `fg` sends SIGCONT, handled below.
        kill(0, SIGSTOP)
    }

    private func resumed() {
        CrashGuard.install()
        backend.resume()
        loop?.invalidate()
        loop?.draw()
    }

    /// Restores the terminal and exits; every way out but a signal goes through here.
    func exit(status: Int32) -> Never {
        leave()
        Glibc.exit(status)
    }

    /// Restores the terminal and dies of `signal`, as its default action would have ended the app.
    func end(by signal: Int32) -> Never {
        leave()
        CrashGuard.die(of: signal)
    }

    /// Gives the terminal back and says on it what the user should know once the app is gone.
    private func leave() {
        restore()
        observer?.exiting()
        if let reason = network?.unavailableReason {
            FileHandle.standardError.write(Data("nimbus: ran without the network: libcurl could not be used (\(reason))\n".utf8))
        }
    }

    func restore() {
        guard !restored else { return }
        restored = true
        backend.stop()
    }
}
