import Foundation
@preconcurrency import CombineSchedulers

enum MainScheduler {
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
}
