import Foundation
import CombineSchedulers

/// Steps a screen's spinner every 100 ms on the app's scheduler while something loads, asking for a
/// frame each step, and stops by itself when nothing does (the Movies list, Today, a city's detail).
@MainActor
final class SpinnerTicker {
    /// Steps since the spinner started (the spinner's frame; ten to a second).
    private(set) var tick = 0
    private var running = false
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let isLoading: () -> Bool
    private let redraw: () -> Void

    init(scheduler: AnySchedulerOf<DispatchQueue>, isLoading: @escaping () -> Bool, redraw: @escaping () -> Void) {
        self.scheduler = scheduler
        self.isLoading = isLoading
        self.redraw = redraw
    }

    /// Starts stepping if something loads and the spinner is not already turning; `resetting`
    /// starts its count again from 0.
    func startIfLoading(resetting: Bool) {
        guard isLoading(), !running else { return }
        running = true
        if resetting { tick = 0 }
        step()
    }

    private func step() {
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(100))) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                guard self.isLoading() else { self.running = false; return }
                self.tick += 1
                self.redraw()
                self.step()
            }
        }
    }
}
