import Foundation
import CombineSchedulers
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// A city's detail: header, current weather, the next 24 hours and 7 days, sun times, the official
/// warnings, and optionally a panel (the city's map) beside or below.
@MainActor
public final class CityDetailScreen: Screen {
    private let l10n: L10n
    /// The one way in to the view model.
    private let events = PassthroughSubject<CityDetailViewModel.Event, Never>()
    /// The screen's own keys, as data (the map panel's go among them while it shows).
    let keyMap: KeyMap<CityDetailViewModel.Event, CityDetailState>
    private var binding: StateBinding<CityDetailState>!
    private var routes: AnyCancellable?
    /// What the screen shows now (one-shot output waits on it).
    public var state: CityDetailState? { binding.value }
    /// From this height the Moon has a line of its own under the sun times.
    static let moonMinHeight = 26
    private let panel: ScreenPanel?
    /// Steps the spinner while the weather loads (nil: no spinner, as in one-shot output).
    private let scheduler: AnySchedulerOf<DispatchQueue>?
    private var left = false

    // Measured while drawing the last frame.
    /// Whether the last frame had room for the panel (its keys are bound only then).
    private var panelShown = false
    /// When the weather began loading, on the scheduler's clock: the spinner's frame is counted from it.
    private var loadingSince: DispatchQueue.SchedulerTimeType?
    /// The body's size at the last frame (what the "no room for the map" line quotes).
    private var size = (width: 0, height: 0)

    /// Width of the weather column; a panel gets the rest when the screen is wide enough.
    static let contentWidth = 64
    /// From this width the detail shows the next 48 hours, in a weather column this wide.
    static let wideWidth = 140
    static let wideContentWidth = 96
    /// Rows the weather needs; a panel goes below them when the screen is tall but narrow. Below
    /// this height a row with nothing urgent to say (the warnings' note) goes to the weather.
    static let contentHeight = 22
    /// Rows of the terminal drawn around this screen: the tab bar and the status bar in the app,
    /// none in one-shot output. The "no room for the map" line quotes the terminal's size.
    private let rowsAround: Int

    /// `ticks` is the app's clock, each minute; `scheduler` steps the spinner.
    public init(viewModel: CityDetailViewModel, l10n: L10n, panel: ScreenPanel?,
                scheduler: AnySchedulerOf<DispatchQueue>? = nil, ticks: AnyPublisher<Date, Never> = Empty().eraseToAnyPublisher(),
                rowsAround: Int = 2, onRoute: @escaping (CityDetailRoute) -> Void) {
        self.l10n = l10n
        self.panel = panel
        self.rowsAround = rowsAround
        self.scheduler = scheduler
        keyMap = Self.keyMap(l10n)
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher(), tick: ticks))
        binding = StateBinding(output.state) { [weak self] old, new in
            guard let self, let scheduler = self.scheduler else { return }
            if new.weather == .loading, old?.weather != .loading { loadingSince = scheduler.now }
        }
        routes = output.route.sink { onRoute($0) }
        events.send(.appeared)
    }

    isolated deinit { if !left { panel?.cancel() } }

    private var isLoading: Bool { state?.weather == .loading }

    /// The detail's state, the map's, and the spinner's steps (ten a second while the weather loads).
    public var changes: AnyPublisher<Void, Never> {
        var spinner: AnyPublisher<Void, Never> = Empty().eraseToAnyPublisher()
        if let scheduler {
            spinner = binding.changes.prepend(())
                .map { [weak self] in self?.isLoading ?? false }
                .removeDuplicates()
                .map { loading -> AnyPublisher<Void, Never> in
                    loading ? scheduler.timerPublisher(every: .milliseconds(100)).autoconnect().map { _ in () }.eraseToAnyPublisher()
                        : Empty().eraseToAnyPublisher()
                }
                .switchToLatest()
                .eraseToAnyPublisher()
        }
        return merge(merge(binding.changes, panel?.changes ?? Empty().eraseToAnyPublisher()), spinner)
    }

    // MARK: Screen

    public var capturesText: Bool { false }

    /// Esc goes back cancelling what loads, `r` refreshes, `f` likes, `a` shows the warnings while
    /// one is in force.
    nonisolated static func keyMap(_ l10n: L10n) -> KeyMap<CityDetailViewModel.Event, CityDetailState> {
        typealias B = KeyBinding<CityDetailViewModel.Event, CityDetailState>
        return KeyMap([
            B([.escape, .backspace], "Esc Backspace", help: .key(.helpKeyBackCancel), hint: l10n[.hintBack], hintKey: "Esc",
              .send(.leaveRequested)),
            B(.char("r"), help: .key(.helpKeyRefresh), hint: l10n[.hintRefresh], .send(.refreshRequested)),
            B(.char("f"), help: .key(.helpKeyLike), hint: l10n[.hintLike], .send(.likeToggled)),
            B(.char("a"), help: .key(.helpKeyWarnings), hint: l10n[.hintWarnings], .send(.warningsOpened), when: .when(\.warningsActive)),
        ])
    }

    /// The keys before the map's in the status bar (Esc, r); the rest (f, a) come after the map's.
    private static let keysBeforePanel = 2

    /// The screen's keys, with the map's among them while it is on screen.
    public var bindings: [Binding] {
        let own = keyMap.bindings(in: state)
        let panelKeys = panelShown ? panel?.bindings ?? [] : []
        return Array(own.prefix(Self.keysBeforePanel)) + panelKeys + own.dropFirst(Self.keysBeforePanel)
    }

    /// The screen's own commands; the map's go to the map while it shows.
    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard let own = KeyMap<CityDetailViewModel.Event, CityDetailState>.command(command, pressed: key) else {
            return panelShown && panel?.perform(command, key: key) == true
        }
        guard case .send(let event) = own else { return false }
        if event == .leaveRequested { leaveScreen() } else { events.send(event) }
        return true
    }

    /// The wheel and drags over the map go to it.
    public func handle(_ pointer: Pointer) -> Bool {
        panelShown ? panel?.handle(pointer) ?? false : false
    }

    /// The city's name and coordinates, and the weather now as one line:
    /// "Seoul 37.57°N 126.98°E: ⛅ Partly cloudy 12°C, wind 9 km/h ↘".
    public var copyText: String? {
        guard let state else { return nil }
        let place = state.header.name + " " + state.header.coordinates
        guard case .loaded(let weather) = state.weather else { return place }
        return "\(place): \(weather.symbol) \(weather.condition) \(weather.temperature), \(weather.wind)"
    }

    /// Cancels the panel's work and the view model's request; the view model then routes back.
    private func leaveScreen() {
        guard !left else { return }
        left = true
        panel?.cancel()
        events.send(.leaveRequested)
    }

    // MARK: Drawing

    /// `text` right-aligned in `cols` columns (the 7 days' highs and lows line up on their digits).
    static func padLeft(_ text: String, to cols: Int) -> String {
        String(repeating: " ", count: max(0, cols - DisplayWidth.of(text))) + text
    }

    /// Where the weather and the panel go for a body of `size`.
    static func layout(width: Int, height: Int, hasPanel: Bool) -> (content: Rect, panel: Rect?) {
        let full = Rect(x: 0, y: 0, width: width, height: height)
        guard hasPanel else { return (full, nil) }
        if width >= wideWidth {
            return (Rect(x: 0, y: 0, width: wideContentWidth, height: height),
                    Rect(x: wideContentWidth + 1, y: 0, width: width - wideContentWidth - 1, height: height))
        }
        if width >= contentWidth + 24 {
            return (Rect(x: 0, y: 0, width: contentWidth, height: height),
                    Rect(x: contentWidth + 1, y: 0, width: width - contentWidth - 1, height: height))
        }
        if height >= contentHeight + 8 {
            return (Rect(x: 0, y: 0, width: width, height: contentHeight),
                    Rect(x: 0, y: contentHeight, width: width, height: height - contentHeight))
        }
        return (full, nil)
    }

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        guard p.width > 0, p.height > 0 else { return }
        let layout = Self.layout(width: p.width, height: p.height, hasPanel: panel != nil)
        panelShown = layout.panel != nil
        size = (p.width, p.height)
        if let rect = layout.panel, let panel {
            let area = p.sub(rect)
            panel.draw(area, theme: theme)
        }
        guard let state else { return }
        drawContent(p.sub(layout.content), state: state, wide: p.width >= Self.wideWidth, theme: theme)
    }

    private func drawContent(_ p: Painter, state: CityDetailState, wide: Bool, theme: Theme) {
        let w = p.width
        var y = 0
        func line(_ text: String, x: Int = 1, style: Style) {
            p.text(DisplayWidth.truncate(DisplayWidth.sanitize(text), to: max(0, w - x)), x: x, y: y, style: style)
        }
        // Header.
        let h = state.header
        var x = 1
        x += p.text(DisplayWidth.truncate(DisplayWidth.sanitize(h.name), to: max(0, w - 1)), x: x, y: y, style: theme.accent)
        if let local = h.localName, x + 2 < w {
            x += p.text(" " + DisplayWidth.truncate(DisplayWidth.sanitize(local), to: w - x - 1), x: x, y: y, style: theme.accent)
        }
        if x + 4 < w {
            x += p.text(DisplayWidth.truncate(" · " + h.country, to: w - x), x: x, y: y, style: theme.text)
        }
        if state.liked {
            let mark = " [" + l10n[.weatherLiked] + "]"
            if x + DisplayWidth.of(mark) <= w { p.text(mark, x: x, y: y, style: theme.warning) }
        }
        y += 1
        line([h.localTime, h.coordinates, h.population].joined(separator: " · "), style: theme.dim)
        y += 1
        line(state.sun.text, style: theme.dim)
        y += 1
        // The Moon where there is room for it below the 24 rows the rest is laid out for.
        if p.height >= Self.moonMinHeight {
            line(state.sun.moon, style: theme.dim)
            y += 1
        }
        // Above the weather: a warning in force, the notice (the data's age or trouble, or how `r`
        // went), else the warnings' note (none in force, no source for the country). Below the
        // height the weather is laid out for, a row with only the note goes to the weather; the
        // map says nothing about room it does not have.
        let warning = state.warnings.flatMap { $0.isActive ? $0 : nil }
        if let warning {
            drawWarning(p, warning, y: y, theme: theme)
            y += 1
        }
        if let notice = state.notice {
            line(notice, style: theme.warning)
            y += 1
        } else if let warnings = state.warnings {
            if warning == nil, p.height >= Self.contentHeight {
                if let note = warnings.note { line(note, style: theme.dim) }
                y += 1
            }
        } else {
            // No warnings line (one-shot output): the row says when there is no room for the map,
            // in the terminal's size (the screen's and the rows around it).
            if panel != nil, !panelShown, size.width > 0 {
                line(l10n.format(.weatherMapNoRoom, String(Self.contentWidth + 24), String(Self.contentHeight + 8 + rowsAround),
                                 String(size.width), String(size.height + rowsAround)), style: theme.dim)
            }
            y += 1
        }

        switch state.weather {
        case .loading:
            var text = l10n[.weatherLoading]
            if let scheduler, let loadingSince {
                // The spinner's frame: tenths of a second since the weather began loading.
                let tick = max(0, loadingSince.distance(to: scheduler.now).magnitude / 100_000_000)
                text = Spinner.frame(tick) + " " + text
                // From a second on, how long it has been: a slow server looks slow, not stuck.
                if tick >= 10 { text += " " + l10n.format(.weatherLoadingElapsed, l10n.number(tick / 10)) }
            }
            line(text, style: theme.dim)
            y += 1
            drawAir(p, state.air, y: y, theme: theme)
        case .unavailable(let message):
            for row in TextWrap.lines(DisplayWidth.sanitize(message), width: max(1, w - 2)).prefix(max(0, p.height - y)) {
                line(row, style: theme.warning)
                y += 1
            }
            drawAir(p, state.air, y: y, theme: theme)
        case .loaded(let weather):
            drawWeather(p, weather: weather, air: state.air, wide: wide, top: y, theme: theme)
        }
    }

    /// The warning in force: its event in its severity's style, when it is in force in the city's
    /// clock, and how many more there are.
    private func drawWarning(_ p: Painter, _ warning: WarningsLine, y: Int, theme: Theme) {
        guard let event = warning.event, y < p.height else { return }
        let w = p.width
        var x = 1
        func put(_ text: String, _ style: Style) {
            guard x < w - 1 else { return }
            x += p.text(DisplayWidth.truncate(DisplayWidth.sanitize(text), to: max(0, w - 1 - x)), x: x, y: y, style: style)
        }
        let style = theme.warningSeverity(warning.severity)
        // Reversed (without colour), the event stands in a bar of its own.
        put(style.reverse ? " " + event + " " : event, style)
        if !warning.times.isEmpty { put(" · " + warning.times, theme.text) }
        if let more = warning.more { put(" · " + more, theme.dim) }
    }

    /// The air's line: "US AQI 42 good · PM2.5 8 · PM10 15 · O₃ 60 µg/m³", the band in its colour,
    /// or where the air is (loading, unavailable); a kept answer says how old it is.
    private func drawAir(_ p: Painter, _ air: CityDetailState.Air?, y: Int, theme: Theme) {
        guard let air, y < p.height else { return }
        let w = p.width
        var x = 1
        func put(_ text: String, _ style: Style) {
            guard x < w - 1 else { return }
            x += p.text(DisplayWidth.truncate(DisplayWidth.sanitize(text), to: max(0, w - 1 - x)), x: x, y: y, style: style)
        }
        switch air {
        case .loading:
            put(l10n[.airLoading], theme.dim)
        case .unavailable(let message):
            put(message, theme.dim)
        case .loaded(let panel):
            put(panel.index, theme.text)
            if let band = panel.band {
                put(" ", theme.text)
                put(band, panel.severity.map { theme.level($0) } ?? theme.text)
            }
            // A kept answer's age (and why it was not replaced) comes before the details, which
            // give way to it on a narrow screen.
            if let notice = panel.notice { put(" · " + notice, theme.warning) }
            put(" · " + panel.details, theme.text)
        }
    }

    /// "now  12    18    00" under a chart of one column per hour: each label starts at its hour's
    /// column, none overlaps the one before, none runs past `width`.
    nonisolated static func timeAxis(_ marks: [String?], now: String, width: Int) -> String {
        guard width > 0, !marks.isEmpty else { return "" }
        // The hours' labels first, each at its own hour's column and apart from the one before (the
        // first column is now's); then "now" over the first columns, where it ends before the first
        // label: an hour's label is never dropped for it ("지금" is four columns wide, and at 08:00
        // the label of 12 is at the fifth).
        var placed: [(column: Int, text: String)] = []
        var end = 0
        for (i, mark) in marks.enumerated().prefix(width) where i > 0 {
            guard let mark else { continue }
            let hour = DisplayWidth.sanitize(mark)
            guard placed.isEmpty || i > end, i + DisplayWidth.of(hour) <= width else { continue }
            placed.append((i, hour))
            end = i + DisplayWidth.of(hour)
        }
        let label = DisplayWidth.truncate(now, to: width, ellipsis: false)
        var axis = placed.first.map { $0.column > DisplayWidth.of(label) } ?? true ? label : ""
        var used = DisplayWidth.of(axis)
        for (column, hour) in placed {
            axis += String(repeating: " ", count: column - used) + hour
            used = column + DisplayWidth.of(hour)
        }
        return axis
    }

    private func drawWeather(_ p: Painter, weather: WeatherPanel, air: CityDetailState.Air?, wide: Bool, top: Int,
                             theme: Theme) {
        let w = p.width
        var y = top
        let iconWidth = w >= 50 ? 14 : 0
        // Today's strongest sun goes with the precipitation now, once the air's answer has it.
        var uv: (text: String, severity: Int?)?
        if case .loaded(let panel)? = air, let text = panel.uv { uv = (text, panel.uvSeverity) }
        let facts = [weather.condition, weather.temperature + "  " + weather.feelsLike, weather.wind,
                     weather.humidity + " · " + weather.pressure, weather.precipitation]
        for i in 0..<5 {
            if iconWidth > 0 { p.text(weather.icon[i], x: 1, y: y + i, style: theme.accent) }
            let text = DisplayWidth.truncate(facts[i], to: max(0, w - iconWidth - 2))
            let x = 1 + iconWidth + p.text(text, x: 1 + iconWidth, y: y + i, style: i == 1 ? theme.accent : theme.text)
            // Today against yesterday beside the sky now, where it fits whole.
            if i == 0, let yesterday = weather.againstYesterday.map({ " · " + DisplayWidth.sanitize($0) }),
               x + DisplayWidth.of(yesterday) <= w - 1 {
                p.text(yesterday, x: x, y: y + i, style: theme.text)
            }
            if i == 4, let uv, x + 3 + DisplayWidth.of(uv.text) <= w - 1 {
                p.text(" · ", x: x, y: y + i, style: theme.text)
                p.text(DisplayWidth.sanitize(uv.text), x: x + 3, y: y + i, style: uv.severity.map { theme.uvLevel($0) } ?? theme.text)
            }
        }
        y += 5
        drawAir(p, air, y: y, theme: theme)
        y += 1
        // A forecast from the cache can end before now: say so instead of empty charts.
        if weather.next24.isEmpty && weather.days.isEmpty {
            for row in TextWrap.lines(l10n[.weatherNothingAhead], width: max(1, w - 2)).prefix(max(0, p.height - y)) {
                p.text(row, x: 1, y: y, style: theme.dim)
                y += 1
            }
            return
        }
        // The next 24 (or 48) hours: temperatures, the sky, what falls, one column an hour, labels padded to the widest.
        let hours = wide ? weather.next48 : weather.next24
        let labels = [hours.title, hours.falls]
        let labelWidth = min(labels.map { DisplayWidth.of($0) }.max() ?? 0, max(0, w / 3))
        let chartX = 1 + labelWidth + 1
        let room = max(0, w - chartX - 1)
        let shown = min(room, hours.temperatures.count)
        /// A chart row, then its summary after it where the whole summary fits.
        func row(_ label: String, _ chart: String, _ style: Style, summary: String) {
            p.text(DisplayWidth.truncate(label, to: labelWidth), x: 1, y: y, style: theme.dim)
            let drawn = DisplayWidth.truncate(chart, to: room, ellipsis: false)
            p.text(drawn, x: chartX, y: y, style: style)
            let after = chartX + DisplayWidth.of(drawn)
            let text = " " + summary
            if after + DisplayWidth.of(text) <= w { p.text(text, x: after, y: y, style: theme.dim) }
            y += 1
        }
        row(labels[0], Sparkline.line(hours.temperatures.map { Optional($0) }), theme.accent,
            summary: l10n.format(.weatherMinMax, hours.min, hours.max))
        for (i, sky) in hours.sky.prefix(shown).enumerated() {
            p.text(sky.symbol, x: chartX + i, y: y, style: theme.sky(sky.kind))
        }
        y += 1
        row(labels[1], Sparkline.line(hours.chances, low: 0, high: 100), theme.text, summary: hours.fallsSummary)
        // The time axis under the charts: "now", then every sixth hour of the city's clock.
        p.text(Self.timeAxis(hours.marks, now: l10n[.weatherAxisNow], width: shown), x: chartX, y: y, style: theme.dim)
        y += 1
        // The next 7 days.
        p.text(DisplayWidth.truncate(l10n[.weatherNext7], to: max(0, w - 1)), x: 1, y: y, style: theme.dim)
        y += 1
        let dayWidth = weather.days.map { DisplayWidth.of($0.weekday) }.max() ?? 3
        let highWidth = weather.days.map { DisplayWidth.of($0.high) }.max() ?? 3
        let lowWidth = weather.days.map { DisplayWidth.of($0.low) }.max() ?? 3
        for (i, day) in weather.days.enumerated() where y < p.height {
            let range = Self.padLeft(day.high, to: highWidth) + " / " + Self.padLeft(day.low, to: lowWidth)
            let row = DisplayWidth.pad(day.weekday, to: dayWidth) + "  " + range + "   " + day.condition
            let end = 1 + p.text(DisplayWidth.truncate(row, to: max(0, w - 2)), x: 1, y: y, style: theme.text)
            // Today's normal beside today's high and low, where it fits whole.
            if i == 0, let normal = weather.normal.map({ "   " + DisplayWidth.sanitize($0) }), end + DisplayWidth.of(normal) <= w - 1 {
                p.text(normal, x: end, y: y, style: theme.dim)
            }
            y += 1
        }
    }
}
