import Foundation
import NimbusData
import NimbusPresentation
import NimbusTerminal
import NimbusUI
import OpenCombineShim

/// Owns the tabs, the global keys and the frame around the active screen.
@MainActor
public final class AppCoordinator {
    /// The smallest terminal the app lays out in; below it a notice is shown instead.
    public static let minimumSize = Size(cols: 40, rows: 10)

    private let container: AppDIContainer
    private let navigator: TabNavigator
    private var children: [AnyObject] = []
    private let l10n: L10n
    /// The retry the status bar counts down to (see `retriesChanged`), and what keeps it counting.
    private var retryWait: HTTPRetryWait?
    private var retryObservation: AnyCancellable?
    private var retryTicker: Cancellable?
    /// Looks for changes another process made to the user's data (see `watchUserData`).
    private var userDataTicker: Cancellable?
    /// How often the user database is checked for another process's changes while the app runs.
    static let userDataCheckInterval = DispatchQueue.SchedulerTimeType.Stride.seconds(2)
    /// The settings overlay (`,` or F2), while it is open.
    private var settings: SettingsOverlay?
    /// The config file's problem stays on the status bar until the settings are opened.
    private var configNoticeSeen = false
    /// The frame's size and where each tab's title was drawn (from the last `render`), for clicks.
    private var lastSize = Size(cols: 0, rows: 0)
    private var tabColumns: [(tab: Int, columns: Range<Int>)] = []
    /// Counts clicks and follows drags across mouse reports.
    private var gestures = PointerGestures()
    /// What `y` copied, shown on the status bar until the next key.
    private var statusMessage: String?
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
              overlay: !overlays.isEmpty || settings != nil,
              capturesText: settings?.capturesText ?? navigator.top?.capturesText ?? false,
              asking: navigator.top?.isAsking ?? false)
    }

    /// Set when the user asked to quit.
    public private(set) var quitRequested = false
    /// Set whenever the frame needs drawing again (by the screens, the tabs and the overlays);
    /// the app loop reads and clears it.
    public let needsDisplay = NeedsDisplay()
    /// Called for Ctrl-Z.
    public var onSuspendRequested: (() -> Void)?

    public init(container: AppDIContainer) {
        self.container = container
        self.l10n = container.l10n
        navigator = TabNavigator(needsDisplay: needsDisplay)
        overlays = OverlayStack(needsDisplay: needsDisplay)
    }

    /// Help and questions over the tab's screen; the top one gets keys first.
    private let overlays: OverlayStack

    /// Whether the terminal should report the mouse: the Mouse setting as it is now (the app loop
    /// tells the terminal when it changes).
    public var mouseWanted: Bool { container.preferences.mouse }

    /// The warm-up of the container's shared services, for a background queue (see `WarmUp`).
    public var warmUp: WarmUp { container.warmUp }

    /// The part of the warm-up that draws; main thread only, after the first frame.
    public func rehearseTyping() { container.rehearseTyping() }

    public func start() {
        let cities = CitiesCoordinator(navigator: navigator, overlays: overlays, dependencies: container.makeCitiesSceneDIContainer())
        cities.start(title: l10n[.tabCities])
        children.append(cities)
        let quakeScenes = container.makeQuakesSceneDIContainer()
        let movieScenes = container.makeMoviesSceneDIContainer()
        let today = TodayCoordinator(navigator: navigator, overlays: overlays,
                                     dependencies: container.makeTodaySceneDIContainer(quakes: quakeScenes, movies: movieScenes))
        today.start(title: l10n[.tabToday])
        children.append(today)
        let liked = LikedCoordinator(navigator: navigator, overlays: overlays, dependencies: container.makeLikedSceneDIContainer())
        liked.start(title: l10n[.tabLiked])
        children.append(liked)
        let quakes = QuakesCoordinator(navigator: navigator, dependencies: quakeScenes)
        quakes.start(title: l10n[.tabQuakes])
        children.append(quakes)
        // Tabs in their fixed order: 1 Cities, 2 Today, 3 Liked, 4 Quakes, 5 Movies, 6 Wishlist.
        let movies = MoviesCoordinator(navigator: navigator, dependencies: movieScenes)
        movies.start(title: l10n[.tabMovies])
        children.append(movies)
        let wishlist = WishlistCoordinator(navigator: navigator, overlays: overlays, dependencies: movieScenes)
        wishlist.start(title: l10n[.tabWishlist])
        children.append(wishlist)
        observeRetries()
        watchUserData()
        let opening = container.preferences.defaultTab
        if opening > 1, opening <= navigator.tabs.count { navigator.select(opening - 1) }
    }

    private func openSettings() {
        settings = SettingsOverlay(container: container, tabTitles: { [unowned self] in navigator.tabs.map(\.title) })
        configNoticeSeen = true
        needsDisplay.set()
    }

    // MARK: Other processes' changes

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

    // MARK: Retries

    /// The network's retries, heard on any thread, handled on the app's scheduler (the main queue).
    private func observeRetries() {
        let scheduler = container.configuration.scheduler
        retryObservation = container.retryStatus.observe { [weak self] in
            scheduler.schedule { MainActor.assumeIsolated { self?.retriesChanged() } }
        }
    }

    /// A retry began or went out: the status bar says how long the last one waiting has left,
    /// redrawn each second while any waits, and goes back to the tab's source when none does.
    private func retriesChanged() {
        retryWait = container.retryStatus.latest
        let scheduler = container.configuration.scheduler
        if retryWait == nil {
            retryTicker?.cancel()
            retryTicker = nil
        } else if retryTicker == nil {
            retryTicker = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
                [weak self] in MainActor.assumeIsolated { self?.needsDisplay.set() }
            }
        }
        needsDisplay.set()
    }

    /// "air quality: rate limited, retrying in 12 s" while a retry waits: what is retried, named.
    var retryMessage: String? {
        guard let retryWait else { return nil }
        let seconds = l10n.number(max(1, retryWait.secondsLeft(at: container.configuration.scheduler.now)))
        let message: String
        switch retryWait.reason {
        case .rateLimited: message = l10n.format(.statusRetryRateLimited, seconds)
        case .unavailable: message = l10n.format(.statusRetryUnavailable, seconds)
        case .connectionFailed: message = l10n.format(.statusRetryConnection, seconds)
        }
        guard let subject = RetrySubject(url: retryWait.url) else { return message }
        return l10n.format(.statusRetryNamed, l10n[subject.key], message)
    }

    // MARK: Keys

    /// Dispatches a key in phases: always-global keys, the help overlay, the screen's text field,
    /// global commands, the screen, then the screen's fallbacks.
    public func handle(_ key: Key) {
        if case .mouse(let event) = key {
            handleMouse(event)
            return
        }
        if statusMessage != nil {
            statusMessage = nil
            needsDisplay.set()
        }
        switch key {
        case .ctrl("c"):
            quitRequested = true
            return
        case .ctrl("l"):
            needsDisplay.setFullRedraw() // the next frame clears the screen and repaints it all
            return
        case .ctrl("z"):
            // The terminal is in raw mode, so Ctrl-Z arrives as a key rather than as SIGTSTP.
            onSuspendRequested?()
            return
        case .function(12):
            toggleMapStats()
            return
        default:
            break
        }
        if let settings {
            if !settings.handle(key) { self.settings = nil }
            // Units, clock and theme changes show on every screen from this frame on.
            needsDisplay.setFullRedraw()
            return
        }
        if overlays.handle(key) { return }
        if key == .function(2) {
            openSettings()
            return
        }
        guard let screen = navigator.top else { return }
        if screen.capturesText {
            if screen.handle(key) { return }
            handleTabKeys(key)
            return
        }
        let own = screen.bindings
        if !own.isEmpty {
            // The app's commands, then the screen's, then going back: the help lists the same.
            for scope in [commands, own, fallbacks(for: own)] {
                if let binding = Binding.find(key, in: scope), binding.run(key) { return }
            }
            return
        }
        if handleGlobal(key) { return }
        if screen.handle(key) { return }
        if key == .escape || key == .backspace { navigator.pop() }
    }

    /// `?`: the shown screen's keys and the app's, from their bindings.
    private func openHelp() {
        let mouse = container.configuration.mouse ? [
            KeyHint(l10n[.helpMouseClick], l10n[.helpMouseClickLabel]),
            KeyHint(l10n[.helpMouseWheel], l10n[.helpMouseWheelLabel]),
            KeyHint(l10n[.helpMouseShift], l10n[.helpMouseShiftLabel]),
        ] : []
        let screen: [KeyHint]
        let global: [KeyHint]
        if let top = navigator.top, !top.bindings.isEmpty {
            screen = (fallbacks(for: top.bindings) + top.bindings).map(\.keyHint)
            global = commands.map(\.keyHint) + alwaysGlobal + mouse
        } else {
            let tabs = navigator.tabs.count > 1 ? [
                KeyHint("1-\(navigator.tabs.count)", l10n[.helpKeyTabs]),
                KeyHint("Tab S-Tab", l10n[.helpKeyTabnext]),
            ] : []
            global = tabs + [
                KeyHint("?", l10n[.helpKeyHelp]),
                KeyHint(", F2", l10n[.helpKeySettings]),
                KeyHint("y", l10n[.helpKeyCopy]),
                KeyHint("q", l10n[.helpKeyQuit]),
            ] + alwaysGlobal + mouse
            screen = navigator.top?.help ?? []
        }
        let entries = { (hints: [KeyHint]) in hints.map { HelpEntry(key: $0.key, label: $0.label) } }
        overlays.push(HelpOverlay(viewModel: HelpViewModel(screen: entries(screen), global: entries(global), l10n: l10n), l10n: l10n))
    }

    // MARK: Mouse

    /// Turns a mouse report into a click (counted), a wheel notch or a drag step, and gives it to the
    /// help overlay, the tab bar or the screen under it.
    private func handleMouse(_ event: MouseEvent) {
        guard container.configuration.mouse else { return }
        // A click or the wheel is the next input: the message `y` left goes, as on a key.
        if statusMessage != nil, event.action != .release, event.action != .drag {
            statusMessage = nil
            needsDisplay.set()
        }
        guard let (action, at) = gestures.gesture(event, at: container.configuration.now()) else { return }
        if overlays.handle(Pointer(action, x: at.x, y: at.y, screen: at)) { return }
        guard lastSize.rows >= Self.minimumSize.rows, lastSize.cols >= Self.minimumSize.cols else { return }
        if at.y == 0 {
            if case .click = action, navigator.top?.isAsking != true,
               let hit = tabColumns.first(where: { $0.columns.contains(at.x) }) {
                navigator.select(hit.tab)
            }
            return
        }
        guard at.y < lastSize.rows - 1, let screen = navigator.top else { return }
        _ = screen.handle(Pointer(action, x: at.x, y: at.y - 1, screen: at))
    }

    // MARK: Copy

    /// `y`: the screen's selected thing goes to the clipboard, and the status bar says what it was.
    private func copySelection() -> Bool {
        guard let text = navigator.top?.copyText else { return false }
        let clean = OSC52.sanitize(text)
        guard !clean.isEmpty else { return false }
        copyToClipboard?(clean)
        statusMessage = l10n.format(.copyDone, clean)
        needsDisplay.set()
        return true
    }

    /// The app's own commands, in every screen whose keys are bindings (outside its text field).
    private var commands: [Binding] {
        var list: [Binding] = []
        if navigator.tabs.count > 1 {
            let digits = (1...navigator.tabs.count).map { Key.char(Character(String($0))) }
            list.append(Binding(digits, "1-\(navigator.tabs.count)", help: l10n[.helpKeyTabs], hint: l10n[.hintTabs]) {
                [unowned self] key in
                guard case .char(let c) = key, let n = c.wholeNumberValue else { return false }
                navigator.select(n - 1)
                return true
            })
            list.append(Binding([.tab, .backTab], "Tab S-Tab", help: l10n[.helpKeyTabnext]) { [unowned self] key in
                navigator.selectNext(key == .tab ? 1 : -1)
                return true
            })
        }
        list += [
            Binding(.char("?"), help: l10n[.helpKeyHelp], hint: l10n[.hintHelp]) { [unowned self] in openHelp() },
            Binding([.char(","), .function(2)], ", F2", help: l10n[.helpKeySettings]) { [unowned self] in openSettings() },
            Binding([.char("y")], "y", help: l10n[.helpKeyCopy]) { [unowned self] _ in copySelection() },
            Binding(.char("q"), help: l10n[.helpKeyQuit], hint: l10n[.hintQuit]) { [unowned self] in quitRequested = true },
        ]
        return list
    }

    /// Keys no scope took: Esc and Backspace go back when there is a screen to go back to (and the
    /// screen does not use them itself).
    private func fallbacks(for own: [Binding]) -> [Binding] {
        guard navigator.tabs.indices.contains(navigator.active), navigator.tabs[navigator.active].stack.count > 1,
              Binding.find(.escape, in: own) == nil else { return [] }
        return [Binding([.escape, .backspace], "Esc Backspace", help: l10n[.helpKeyBack], hint: l10n[.hintBack], hintKey: "Esc") {
            [unowned self] in navigator.pop()
        }]
    }

    /// What is wrong with the keys in force now: a key bound twice in one scope (the top overlay's,
    /// or the app's commands with the shown screen's), or a hint shown with no key. Empty when all is well.
    public var bindingProblems: [String] {
        var scopes: [[Binding]] = []
        if let top = overlays.top {
            scopes = [top.bindings]
        } else if let screen = navigator.top, !screen.bindings.isEmpty {
            scopes = screen.capturesText ? [screen.bindings] : [commands, screen.bindings]
        }
        let twice = BindingConflicts.duplicates(scopes).map { key, claims in
            "\(Binding.name(key)) is bound \(claims.count) times: " + claims.joined(separator: " / ")
        }
        return twice + BindingConflicts.unbound(scopes.flatMap { $0 }).map { "the hint “\($0)” has no key" }
    }

    /// Keys that work everywhere, a text field included (handled before any scope; listed in the help).
    private var alwaysGlobal: [KeyHint] {
        [KeyHint("Ctrl-C", l10n[.helpKeyCtrlc]), KeyHint("Ctrl-L", l10n[.helpKeyRedraw]), KeyHint("F12", l10n[.helpKeyDebug])]
    }

    private func handleGlobal(_ key: Key) -> Bool {
        switch key {
        case .char("q"):
            quitRequested = true
            return true
        case .char("?"):
            openHelp()
            return true
        case .char(","):
            openSettings()
            return true
        case .char("y"):
            return copySelection()
        case .char(let c) where c.isASCII && c.isNumber:
            guard let n = c.wholeNumberValue, n >= 1, n <= navigator.tabs.count else { return false }
            navigator.select(n - 1)
            return true
        default:
            return handleTabKeys(key)
        }
    }

    @discardableResult
    private func handleTabKeys(_ key: Key) -> Bool {
        switch key {
        case .tab: navigator.selectNext(1); return true
        case .backTab: navigator.selectNext(-1); return true
        default: return false
        }
    }

    // MARK: Drawing

    private var theme: Theme { container.preferences.theme }

    /// Draws the whole frame for a terminal of `size`.
    public func render(size: Size) -> ScreenBuffer {
        let canvas = Canvas(size: size)
        let p = canvas.painter()
        lastSize = size
        if size.cols < Self.minimumSize.cols || size.rows < Self.minimumSize.rows {
            drawTooSmall(p, size: size)
            return canvas.buffer
        }
        tabColumns = TabBar.draw(p.sub(Rect(x: 0, y: 0, width: size.cols, height: 1)),
                    titles: navigator.tabs.map(\.title), active: navigator.active,
                    activeStyle: theme.tabActive, style: theme.tabBar)
        let body = p.sub(Rect(x: 0, y: 1, width: size.cols, height: size.rows - 2))
        navigator.top?.draw(body, theme: theme)
        var hints: [(key: String, label: String)]
        if let top = navigator.top, !top.bindings.isEmpty {
            let own = top.bindings
            let global = top.capturesText ? [] : commands
            let tabs = global.prefix(1).compactMap(\.barHint).filter { _ in navigator.tabs.count > 1 }
            var bar = (fallbacks(for: own) + own + global.dropFirst(tabs.count)).compactMap(\.barHint)
            bar.insert(contentsOf: tabs, at: min(2, bar.count))
            hints = bar.map { (key: $0.key, label: $0.label) }
        } else {
            hints = (navigator.top?.hints ?? []).map { (key: $0.key, label: $0.label) }
            if navigator.tabs.count > 1, navigator.top?.capturesText == false {
                hints.insert((key: "1-\(navigator.tabs.count)", label: l10n[.hintTabs]), at: min(2, hints.count))
            }
        }
        if !configNoticeSeen, container.configNotice != nil, settings == nil {
            // The config file's problem needs the room: only the key that opens the settings stays.
            hints = [(key: ",", label: l10n[.settingsTitle])]
        }
        StatusBar.draw(p.sub(Rect(x: 0, y: size.rows - 1, width: size.cols, height: 1)),
                       hints: hints, right: statusRight, style: theme.statusBar, keyStyle: theme.statusKey)
        settings?.draw(p, theme: theme)
        overlays.draw(p, theme: theme)
        return canvas.buffer
    }

    /// The right of the status bar: the config file's problem until the settings are opened, else
    /// where the data comes from.
    private var statusRight: String {
        if let statusMessage { return statusMessage }
        if let retryMessage { return retryMessage }
        if !configNoticeSeen, let notice = container.configNotice { return notice }
        return navigator.activeSource ?? container.statusSource
    }

    /// The frame from the last `render` is on the terminal.
    public func frameShown() {
        navigator.top?.frameShown()
    }

    private func drawTooSmall(_ p: Painter, size: Size) {
        let detail = l10n.format(.tooSmallDetail, String(Self.minimumSize.cols), String(Self.minimumSize.rows),
                                 String(size.cols), String(size.rows))
        // Too narrow for one line: break after the list separator ("need …, have …") instead of cutting.
        var lines = [l10n[.tooSmall], detail]
        if DisplayWidth.of(detail) > size.cols, let cut = detail.range(of: ", ") ?? detail.range(of: "、") {
            lines = [l10n[.tooSmall], String(detail[..<cut.lowerBound]), String(detail[cut.upperBound...])]
        }
        let top = max(0, (size.rows - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < size.rows {
            let shown = DisplayWidth.truncate(line, to: size.cols)
            p.text(shown, x: max(0, (size.cols - DisplayWidth.of(shown)) / 2), y: top + i, style: theme.warning)
        }
    }

    /// F12: the map cache's counters over whatever is shown, read each second; F12 again closes them.
    private func toggleMapStats() {
        if overlays.contains(MapStatsOverlay.self) {
            overlays.removeAll(MapStatsOverlay.self)
            return
        }
        let scheduler = container.configuration.scheduler
        let tick = scheduler.timerPublisher(every: .seconds(1)).autoconnect().map { _ in () }.eraseToAnyPublisher()
        let map = container.map
        overlays.push(MapStatsOverlay(viewModel: MapStatsViewModel(statistics: { map.statistics }, l10n: l10n), l10n: l10n, tick: tick))
    }

}
