import Foundation
import CombineSchedulers
import OpenCombineShim

public enum MainScheduler {
    /// The main queue, without a hop when already on it (`UIScheduler`), typed as the
    /// `AnySchedulerOf<DispatchQueue>` view models take: a keystroke's results then land in the
    /// same frame as the keystroke instead of one frame later.
    static var live: AnySchedulerOf<DispatchQueue> {
        let ui = UIScheduler.shared
        return AnySchedulerOf<DispatchQueue>(
            minimumTolerance: { ui.minimumTolerance },
            now: { ui.now },
            scheduleImmediately: { _, action in ui.schedule(action) },
            delayed: { date, tolerance, _, action in ui.schedule(after: date, tolerance: tolerance, action) },
            interval: { date, interval, tolerance, _, action in
                ui.schedule(after: date, interval: interval, tolerance: tolerance, action)
            })
    }

    /// The live scheduler's behaviour on a virtual clock, for tapes and tests: work scheduled from
    /// the main thread runs at once, work from other threads (network answers) waits for the clock,
    /// which the main thread advances, and delayed work is timed by it. Tests then meet the same
    /// orderings the user does.
    public static func onVirtualClock(_ clock: TestSchedulerOf<DispatchQueue>) -> AnySchedulerOf<DispatchQueue> {
        AnySchedulerOf<DispatchQueue>(
            minimumTolerance: { clock.minimumTolerance },
            now: { clock.now },
            scheduleImmediately: { options, action in
                if Thread.isMainThread { action() } else { clock.schedule(options: options, action) }
            },
            delayed: { date, tolerance, options, action in
                clock.schedule(after: date, tolerance: tolerance, options: options, action)
            },
            interval: { date, interval, tolerance, options, action in
                clock.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
            })
    }
}
