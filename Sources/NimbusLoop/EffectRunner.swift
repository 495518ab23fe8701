import Foundation
@preconcurrency import OpenCombineShim
import CombineSchedulers

// NimbusLoop: the one loop every view model runs in, and nothing else. It is the only place that
// subscribes: to a view model's actions, and to each effect's answers. View models (in
// NimbusPresentation) only say what their state is, how an action changes it and what an effect
// does; they never subscribe themselves.

/// What the runner does for one of a view model's effects: a use case's answers to deliver back as
/// actions, a cancellation, or a route for the coordinator.
///
/// A view model's `reduce` returns its own effects as plain values (so a table test compares them);
/// its `perform` turns each into `Work` with the use cases it was given.
public enum Work<Action, Route> {
    /// Nothing to do.
    case none
    /// Subscribe to `answers` and deliver each as an action. Starting work with an `id` cancels the
    /// work in flight with the same id first (the newest request wins); answers from cancelled work
    /// are never delivered, even when already queued.
    /// `immediate` delivers where the answer is made (the bundled catalogues answer within the
    /// keystroke); otherwise answers arrive on the runner's scheduler.
    case run(AnyPublisher<Action, Never>, id: AnyHashable? = nil, immediate: Bool = false)
    /// Work done where it is asked, within the action that asked (a bundled catalogue's search, a
    /// save to the user's database): `answer` runs at once and what it returns is delivered as an
    /// action, after the effects of the action that asked. Starting it cancels the work in flight
    /// with the same `id`, as `run` does. It needs no subscription, which a keystroke would pay for.
    case answer(id: AnyHashable? = nil, () -> Action?)
    /// `answer` run once after `delay` on the runner's scheduler, unless work with the same `id`
    /// starts or is cancelled first: then it never runs (rows that only flashed by are never read).
    case after(DispatchQueue.SchedulerTimeType.Stride, id: AnyHashable, () -> Action?)
    /// Cancel the work in flight with this id (nothing when there is none).
    case cancel(AnyHashable)
    /// Tell the coordinator where to go.
    case route(Route)
    /// Several at once, in order.
    case all([Work])
}

/// A view model's outputs as the runner makes them: the state after every action, and the routes.
public struct Loop<State, Route> {
    public let state: AnyPublisher<State, Never>
    public let route: AnyPublisher<Route, Never>
}

/// The one place that runs a view model: actions in, `reduce` folds each into the state, the effects
/// it returns run, and their answers come back as actions.
///
/// Every screen's view model is this loop, so what differs between them is only what they say:
/// their `State`, `Action`, `reduce` and `perform`. Actions that arrive while one is being reduced (an
/// effect that answers at once) wait their turn, so `reduce` never runs inside itself.
public enum EffectRunner {
    /// Starts when `state` is first subscribed to, and stops (cancelling every effect in flight) when
    /// that subscription ends. Every output starts from an input: the state is emitted after the first
    /// action, then after every action that changed it.
    public static func run<State: Equatable, Action, Effect, Route>(
        initial: State,
        actions: AnyPublisher<Action, Never>,
        scheduler: AnySchedulerOf<DispatchQueue>,
        reduce: @escaping (inout State, Action) -> [Effect],
        perform: @escaping (Effect) -> Work<Action, Route>
    ) -> Loop<State, Route> {
        let runtime = Runtime(state: initial, scheduler: scheduler, reduce: reduce, perform: perform)
        let state = runtime.states
            .compactMap { $0 }
            .handleEvents(receiveSubscription: { _ in runtime.start(actions) }, receiveCancel: { runtime.stop() })
            .removeDuplicates()
            .eraseToAnyPublisher()
        return Loop(state: state, route: runtime.routes.eraseToAnyPublisher())
    }

    /// The loop's one mutable place: the state, the effects in flight and the actions waiting.
    final class Runtime<State: Equatable, Action, Effect, Route> {
        /// Holds the latest state until the subscriber asks for it: the actions that start with the
        /// subscription (a store's contents, say) come before the subscriber's demand does.
        let states = CurrentValueSubject<State?, Never>(nil)
        /// The state last emitted (nil before the first action).
        private var emitted: State?
        let routes = PassthroughSubject<Route, Never>()
        private var state: State
        private let scheduler: AnySchedulerOf<DispatchQueue>
        private let reduce: (inout State, Action) -> [Effect]
        private let perform: (Effect) -> Work<Action, Route>
        private var input: AnyCancellable?
        private var started = false
        /// Work in flight by id (and anonymous work under fresh ids), with the generation that may deliver.
        private var inFlight: [AnyHashable: (generation: Int, cancellable: AnyCancellable)] = [:]
        private var generation = 0
        private var pending: [Action] = []
        private var draining = false

        init(state: State, scheduler: AnySchedulerOf<DispatchQueue>, reduce: @escaping (inout State, Action) -> [Effect],
             perform: @escaping (Effect) -> Work<Action, Route>) {
            self.state = state
            self.scheduler = scheduler
            self.reduce = reduce
            self.perform = perform
        }

        func start(_ actions: AnyPublisher<Action, Never>) {
            guard !started else { return }
            started = true
            input = actions.sink { [weak self] in self?.send($0) }
        }

        func stop() {
            input = nil
            for (_, work) in inFlight { work.cancellable.cancel() }
            inFlight = [:]
            pending = []
        }

        func send(_ action: Action) {
            pending.append(action)
            guard !draining else { return }
            draining = true
            defer { draining = false }
            while !pending.isEmpty {
                let next = pending.removeFirst()
                let effects = reduce(&state, next)
                if state != emitted {
                    emitted = state
                    states.send(state)
                }
                for effect in effects { execute(perform(effect)) }
            }
        }

        private struct Anonymous: Hashable { let number: Int }

        private func execute(_ work: Work<Action, Route>) {
            switch work {
            case .none:
                break
            case .route(let route):
                routes.send(route)
            case .cancel(let id):
                inFlight.removeValue(forKey: id)?.cancellable.cancel()
            case .all(let works):
                works.forEach(execute)
            case .answer(let id, let answer):
                if let id { inFlight.removeValue(forKey: id)?.cancellable.cancel() }
                if let action = answer() { send(action) }
            case .after(let delay, let id, let answer):
                generation += 1
                let mine = generation
                inFlight.removeValue(forKey: id)?.cancellable.cancel()
                inFlight[id] = (mine, AnyCancellable {})
                // A one-shot that checks, when it fires, that it is still the work in flight for `id`.
                scheduler.schedule(after: scheduler.now.advanced(by: delay)) { [weak self] in
                    guard let self, self.inFlight[id]?.generation == mine else { return }
                    self.inFlight.removeValue(forKey: id)
                    if let action = answer() { self.send(action) }
                }
            case .run(let answers, let id, let immediate):
                generation += 1
                let key = id ?? AnyHashable(Anonymous(number: generation))
                inFlight.removeValue(forKey: key)?.cancellable.cancel()
                let mine = generation
                let delivered = immediate ? answers : answers.receive(on: scheduler).eraseToAnyPublisher()
                // Stored before subscribing, so work that finishes at once removes its own entry.
                let box = AnyCancellableBox()
                inFlight[key] = (mine, AnyCancellable { box.cancellable?.cancel() })
                let cancellable = delivered.sink(
                    receiveCompletion: { [weak self] _ in
                        guard let self, self.inFlight[key]?.generation == mine else { return }
                        self.inFlight.removeValue(forKey: key)
                    },
                    receiveValue: { [weak self] action in
                        // A guard, not a rule anything depends on: replaced or cancelled work is
                        // unsubscribed first, on this queue, and OpenCombine delivers nothing to a
                        // cancelled subscriber (also what `receive(on:)` had already scheduled), so
                        // no answer of older work reaches here (`scripts/mutants.tsv` shows the
                        // tests pass without it). Kept against a publisher that would deliver anyway.
                        guard let self, self.inFlight[key]?.generation == mine else { return }
                        self.send(action)
                    })
                if inFlight[key]?.generation == mine { box.cancellable = cancellable } else { cancellable.cancel() }
            }
        }
    }

    private final class AnyCancellableBox {
        var cancellable: AnyCancellable?
    }
}
