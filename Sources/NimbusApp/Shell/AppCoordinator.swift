import Foundation
import NimbusData
import NimbusPresentation
import NimbusTerminal
import NimbusUI
import OpenCombineShim

/// Owns the tabs and the overlays over them: gives each key to the first that takes it, in a fixed
/// order, and composes the frame around the active screen.
@MainActor
public final class AppCoordinator {
    /// The smallest terminal the app lays out in; below it a notice is shown instead.
    public static let minimumSize = Size(cols: 40, rows: 10)

    let container: AppDIContainer
    let navigator: TabNavigator
    private var children: [AnyObject] = []
    let l10n: L10n
    /// Help, settings, map statistics and questions over the tab's screen; the top one gets keys first.
    let overlays: OverlayStack
    private let retries: RetryCountdown
    /// The settings file's problem, on the screen from the start until the first key.
    var settingsNotice: String?
    private var settingsChanges: AnyCancellable?
    /// Looks for changes another process made to the user's data (see `watchUserData`).
    private var userDataTicker: Cancellable?
    /// How often the user database is checked for another process's changes while the app runs.
    static let userDataCheckInterval = DispatchQueue.SchedulerTimeType.Stride.seconds(2)
    /// The frame's size and where each tab's title was drawn (from the last `render`), for clicks.
    var lastSize = Size(cols: 0, rows: 0)
    var tabColumns: [(tab: Int, columns: Range<Int>)] = []
    /// Counts clicks and follows drags across mouse reports.
    var gestures = PointerGestures()
    /// What `y` copied, a change to the user's data or an undo: shown on the status bar until the
    /// next key (or, for a change, until `changeMessageSeconds` pass).
    var statusMessage: String?
    /// Each change to the user's data, said on the status line (`watchChanges`).
    var changeRecords: AnyCancellable?
    /// Clears a change's message after a few seconds.
    var messageExpiry: Cancellable?
    /// The change message last said, and its words, made again to fit a narrow bar.
    var changeWords: (said: String, words: (ChangeText) -> String)?
    /// Where `y` sends text: the terminal's clipboard (OSC 52), set by `AppLoop`.
    public var copyToClipboard: ((String) -> Void)?

    /// Where the user is: the active tab, how many screens deep, and whether an overlay (help, the
    /// map cache statistics) covers the screen. For tests that check what the screen must show.
    public struct Place: Equatable, Sendable {
        public let tab: Int
        public let depth: Int
        public let overlay: Bool
        /// A text field (or a question) on the screen takes printable keys as text.
        public let capturesText: Bool
        /// The screen asks something over its own rows (the wishlist's "delete all?", a film filter's picker).
        public let asking: Bool
    }

    public var place: Place {
        Place(tab: navigator.active, depth: navigator.tabs.indices.contains(navigator.active)
                ? navigator.tabs[navigator.active].stack.count : 0,
              overlay: !overlays.isEmpty, capturesText: overlays.top?.capturesText ?? navigator.top?.capturesText ?? false,
              asking: navigator.top?.isAsking ?? false)
    }

    /// Set when the user asked to quit.
    public internal(set) var quitRequested = false
    /// Set whenever the frame needs drawing again (by the screens, the tabs, the overlays and the
    /// settings); the app loop reads and clears it.
    public let needsDisplay = NeedsDisplay()
    /// Called for Ctrl-Z.
    public var onSuspendRequested: (() -> Void)?

    public init(container: AppDIContainer) {
        self.container = container
        self.l10n = container.l10n
        navigator = TabNavigator(needsDisplay: needsDisplay)
        overlays = OverlayStack(needsDisplay: needsDisplay)
        retries = RetryCountdown(status: container.retryStatus, scheduler: container.configuration.scheduler, l10n: l10n,
                                 needsDisplay: needsDisplay)
    }

    /// Whether the terminal should report the mouse: the Mouse setting as it is now (the app loop
    /// tells the terminal when it changes, and clicks are taken exactly while it is on).
    public var mouseWanted: Bool { container.preferences.mouse }

    /// The warm-up of the container's shared services, for a background queue (see `WarmUp`).
    public var warmUp: WarmUp { container.warmUp }

    /// The part of the warm-up that draws; main thread only, after the first frame.
    public func typingRehearsal() -> TypingRehearsal { container.typingRehearsal() }

    public func start() {
        // Each tab's coordinator is made by its scene container. Tabs in their fixed order: 1 Cities,
        // 2 Today, 3 Liked, 4 Quakes, 5 Movies, 6 Wishlist.
        let cities = container.makeCitiesSceneDIContainer().makeCitiesCoordinator(navigator: navigator, overlays: overlays)
        cities.start(title: .tabCities)
        let quakeScenes = container.makeQuakesSceneDIContainer()
        let movieScenes = container.makeMoviesSceneDIContainer()
        let today = container.makeTodaySceneDIContainer(quakes: quakeScenes, movies: movieScenes)
            .makeTodayCoordinator(navigator: navigator, overlays: overlays)
        today.start(title: .tabToday)
        let liked = container.makeLikedSceneDIContainer().makeLikedCoordinator(navigator: navigator, overlays: overlays)
        liked.start(title: .tabLiked)
        let quakes = quakeScenes.makeQuakesCoordinator(navigator: navigator, overlays: overlays)
        quakes.start(title: .tabQuakes)
        let movies = movieScenes.makeMoviesCoordinator(navigator: navigator, overlays: overlays)
        movies.start(title: .tabMovies)
        let wishlist = movieScenes.makeWishlistCoordinator(navigator: navigator, overlays: overlays) { [weak self] message in
            self?.say(message, expires: false)
        }
        wishlist.start(title: .tabWishlist)
        children = [cities, today, liked, quakes, movies, wishlist]
        retries.start()
        watchUserData()
        watchChanges()
        settingsNotice = container.settings.current.problems.first.map { SettingsProblemText.message($0, l10n: l10n) }
        // Units, clock, theme and mouse changes show on every screen from the next frame on.
        settingsChanges = container.settings.contents.dropFirst().sink { [needsDisplay] _ in needsDisplay.setFullRedraw() }
        let opening = container.preferences.defaultTab
        if opening > 1, opening <= navigator.tabs.count { navigator.select(opening - 1) }
    }

    /// What another process saves (`nimbus wishlist import`, a second window's likes) shows here too:
    /// the stores read the user database again when it changed, checked when a tab is shown and every
    /// `userDataCheckInterval` on the app's scheduler (the virtual clock in tapes and tests).
    private func watchUserData() {
        let container = self.container
        navigator.willShowTab = { _ in container.refreshUserDataChangedElsewhere() }
        let scheduler = container.configuration.scheduler
        userDataTicker = scheduler.schedule(after: scheduler.now.advanced(by: Self.userDataCheckInterval),
                                            interval: Self.userDataCheckInterval) {
            [weak self] in MainActor.assumeIsolated { self?.container.refreshUserDataChangedElsewhere() }
        }
    }

    // MARK: Keys

    /// Dispatches a key in phases: always-global keys, the overlays, the screen's text field, the
    /// app's commands, the screen, then the fallbacks.
    public func handle(_ key: Key) {
        if case .mouse(let event) = key {
            handleMouse(event)
            return
        }
        if statusMessage != nil || settingsNotice != nil {
            statusMessage = nil
            settingsNotice = nil
            needsDisplay.set()
        }
        if let global = Self.alwaysGlobal.first(where: { $0.key == key }) {
            run(global.command)
            return
        }
        if overlays.handle(key) { return }
        if key == .function(2) {
            openSettings()
            return
        }
        guard let screen = navigator.top else { return }
        if screen.capturesText {
            // Its bindings for the focused field (Enter, Esc, …), then the key as text, as overlays do.
            if press(key, in: screen.bindings, of: screen) { return }
            if screen.handle(key) { return }
            handleTabKeys(key)
            return
        }
        // The app's commands, then the screen's, then going back: the help lists the same.
        let own = screen.bindings
        if press(key, in: commands, of: nil) || press(key, in: own, of: screen) || press(key, in: fallbacks(for: own), of: nil) { return }
    }

    /// Presses `key` in one scope's `bindings`, carried out by `scope` (nil: the app's own commands);
    /// true when the scope took it. A binding listed but not in force says why on the status line
    /// until the next key (lazygit's disabled reason).
    private func press(_ key: Key, in bindings: [Binding], of scope: KeyScope?) -> Bool {
        let press = Binding.press(key, in: bindings) { command, key in
            scope?.perform(command, key: key) ?? perform(command, key: key)
        }
        switch press {
        case .ran: return true
        case .refused(let reason):
            statusMessage = reason
            needsDisplay.set()
            return true
        case .passed: return false
        }
    }

    // MARK: Drawing

    /// Draws the whole frame for a terminal of `size`.
    public func render(size: Size) -> ScreenBuffer {
        let theme = container.preferences.theme
        let canvas = Canvas(size: size)
        let p = canvas.painter()
        lastSize = size
        if size.cols < Self.minimumSize.cols || size.rows < Self.minimumSize.rows {
            StatusLine.drawTooSmall(p, size: size, minimum: Self.minimumSize, l10n: l10n, theme: theme)
            return canvas.buffer
        }
        tabColumns = TabBar.draw(p.sub(Rect(x: 0, y: 0, width: size.cols, height: 1)),
                                 titles: navigator.tabs.map { l10n[$0.title] }, active: navigator.active,
                                 activeStyle: theme.tabActive, style: theme.tabBar)
        navigator.top?.draw(p.sub(Rect(x: 0, y: 1, width: size.cols, height: size.rows - 2)), theme: theme)
        let source = navigator.activeSource
        let status = StatusLine(hints: hints, message: statusMessage(columns: size.cols) ?? retries.message ?? (source == nil ? databaseNotice : nil),
                                source: source ?? citiesSource, notice: settingsNotice)
        status.draw(p.sub(Rect(x: 0, y: 1, width: size.cols, height: size.rows - 1)), theme: theme)
        overlays.draw(p, theme: theme)
        return canvas.buffer
    }

    /// The status bar's key hints: [Esc back] + the screen's hinted bindings + the app's, with
    /// "1-6 tabs" third.
    private var hints: [(key: String, label: String)] {
        guard let top = navigator.top else { return [] }
        let own = top.bindings
        let global = top.capturesText ? [] : commands
        let tabs = global.prefix(1).compactMap { $0.barHint(in: l10n) }.filter { _ in navigator.tabs.count > 1 }
        var bar = (fallbacks(for: own) + own + global.dropFirst(tabs.count)).compactMap { $0.barHint(in: l10n) }
        bar.insert(contentsOf: tabs, at: min(2, bar.count))
        return bar.map { (key: $0.key, label: $0.label) }
    }

    /// Likes and the wishlist are not being saved, or were recovered: said before where data comes from.
    private var databaseNotice: String? {
        switch container.userDatabase.status {
        case .saved: nil
        case .recovered: l10n[.statusDatabaseRecovered]
        case .notSaved: l10n[.statusDatabaseNotSaved]
        }
    }

    /// "GeoNames · 34,006 cities", made once (the status bar shows it on every frame).
    private lazy var citiesSource = l10n.format(.statusSourceCities, l10n.number(container.cityRepository.cityCount))

    /// The frame from the last `render` is on the terminal.
    public func frameShown() {
        navigator.top?.frameShown()
    }
}
