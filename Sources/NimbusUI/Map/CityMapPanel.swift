import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// A city's map inside another screen: the map, and a line with the scale bar and the zoom.
///
/// Keys: `+`/`-` zoom, arrows or `h j k l` pan, `0` back to the city, `c` braille or blocks, `e` recent
/// earthquakes on or off (on maps that can show them).
@MainActor
public final class CityMapPanel: ScreenPanel {
    private let l10n: L10n
    /// The one way in to the view model.
    private let events = PassthroughSubject<CityMapViewModel.Event, Never>()
    /// The map's keys, as data.
    let keyMap: KeyMap<CityMapViewModel.Event, CityMapState>
    private var binding: StateBinding<CityMapState>!
    private let mouse: Bool
    /// The app's map style now (the settings change it): the panel tells its view model when it changed.
    private let preferredStyle: (() -> MapStyle)?

    // Measured while drawing the last frame.
    /// The map's size: a new one goes to the view model (a cached map then comes at once).
    private var lastSize: MapSize?
    /// The app's map style the last frame saw.
    private var lastPreferredStyle: MapStyle?
    /// Where the map was last drawn (absolute cells), and the drag not yet turned into pans.
    private var mapArea: Rect?
    private var dragged = (x: 0, y: 0)

    /// The latest state from the view model (for tests).
    public var state: CityMapState? { binding.value }
    public var changes: AnyPublisher<Void, Never> { binding.changes }

    /// `preferredStyle`, when given, is followed when it changes elsewhere (the settings); `mouse`: the
    /// wheel and drags are listed in the help (they work whenever reports come).
    public init(viewModel: CityMapViewModel, l10n: L10n, preferredStyle: (() -> MapStyle)? = nil, mouse: Bool = true) {
        self.l10n = l10n
        self.preferredStyle = preferredStyle
        self.mouse = mouse
        keyMap = Self.keyMap(l10n, mouse: mouse)
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        binding = StateBinding(output.state)
    }

    /// The map's size in a panel of `width` × `height`: one line is kept for the scale and zoom when
    /// there are at least three.
    static func mapSize(width: Int, height: Int) -> MapSize {
        MapSize(cols: width, rows: height >= 3 ? height - 1 : height)
    }

    public func draw(_ p: Painter, theme: Theme) {
        guard p.width > 0, p.height > 0 else { return }
        // What this frame measured goes to the view model: the map's size (a cached map arrives at
        // once, into `state`), and the app's map style when the settings changed it.
        let size = Self.mapSize(width: p.width, height: p.height)
        if size != lastSize {
            lastSize = size
            events.send(.sizeChanged(size))
        }
        if let wanted = preferredStyle?(), wanted != lastPreferredStyle {
            lastPreferredStyle = wanted
            events.send(.styleChosen(wanted))
        }
        guard let state else { return }
        let mapArea = p.sub(Rect(x: 0, y: 0, width: size.cols, height: size.rows))
        self.mapArea = mapArea.bounds
        if let snapshot = state.snapshot {
            MapSnapshotView.draw(snapshot, in: mapArea, palette: theme.map, label: state.cityName, markers: state.markers)
        }
        if let message = state.message, !state.isLoading || state.snapshot == nil {
            let line = DisplayWidth.truncate(message, to: mapArea.width)
            mapArea.text(line, x: max(0, (mapArea.width - DisplayWidth.of(line)) / 2), y: mapArea.height / 2,
                         style: state.isLoading ? theme.dim : theme.warning)
        }
        guard p.height >= 3 else { return }
        let footer = p.sub(Rect(x: 0, y: p.height - 1, width: p.width, height: 1))
        var right = state.status
        if state.isLoading, state.snapshot != nil, let message = state.message { right = message + "  " + right }
        let rightShown = DisplayWidth.truncate(right, to: footer.width)
        let rightWidth = DisplayWidth.of(rightShown)
        footer.text(rightShown, x: footer.width - rightWidth, y: 0, style: theme.dim)
        if let bar = state.scaleBar, let text = MapSnapshotView.scaleText(bar, maxWidth: footer.width - rightWidth - 1) {
            footer.text(text, x: 0, y: 0, style: theme.map.scale)
        }
    }

    /// The map's keys: `+ -` zoom, arrows or `h j k l` pan, `0` resets, `c` changes the style, `e`
    /// (on maps that can show them) the earthquakes; with `mouse`, the wheel and drags in the help.
    nonisolated static func keyMap(_ l10n: L10n, mouse: Bool) -> KeyMap<CityMapViewModel.Event, CityMapState> {
        typealias B = KeyBinding<CityMapViewModel.Event, CityMapState>
        let zoom: [Key: CityMapViewModel.Event] = [.char("+"): .zoomed(1), .char("="): .zoomed(1), .char("-"): .zoomed(-1),
                                                   .char("_"): .zoomed(-1)]
        let pan: [Key: CityMapViewModel.Event] = [
            .left: .panned(.left), .char("h"): .panned(.left), .down: .panned(.down), .char("j"): .panned(.down),
            .up: .panned(.up), .char("k"): .panned(.up), .right: .panned(.right), .char("l"): .panned(.right),
        ]
        return KeyMap([
            B([.char("+"), .char("="), .char("-"), .char("_")], "+ -", help: .key(.helpKeyMapZoom), hint: l10n[.mapHintZoom],
              hintKey: "+-", .sendEach(zoom)),
            B([.left, .down, .up, .right, .char("h"), .char("j"), .char("k"), .char("l")], "← ↓ ↑ →  h j k l",
              help: .key(.helpKeyMapPan), hint: l10n[.mapHintPan], hintKey: "hjkl", .sendEach(pan)),
            B(.char("0"), help: .key(.helpKeyMapReset), .send(.resetRequested)),
            B(.char("c"), help: .key(.helpKeyMapStyle), .send(.styleToggled)),
        ] + (mouse ? [B([], .key(.helpMouseMap), help: .key(.helpMouseMapLabel), .describe)] : []) + [
            // (`e` is in the help only: the bar keeps room for `? help`.)
            B(.char("e"), help: .key(.helpKeyMapQuakes), .send(.quakesToggled), when: .when(\.canShowQuakes)),
        ])
    }

    /// The map's keys, for its host to list with its own while the map is on screen.
    public var bindings: [Binding] { keyMap.bindings(in: state) }

    public func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard case .send(let event)? = KeyMap<CityMapViewModel.Event, CityMapState>.command(command, pressed: key) else { return false }
        events.send(event)
        return true
    }

    /// The wheel over the map zooms at the pointer; a drag moves the map with the pointer, a quarter
    /// of the view at a time. Returns false for pointers outside the map.
    public func handle(_ pointer: Pointer) -> Bool {
        guard let area = mapArea, area.width > 0, area.height > 0 else { return false }
        switch pointer.action {
        case .wheel(let notches):
            guard area.contains(pointer.screen), notches != 0 else { return false }
            // The pointer in quarters of the view from the centre, rounded.
            let qx = Int((Double(pointer.screen.x - area.x) + 0.5 - Double(area.width) / 2) * 4 / Double(area.width)).clamped(-2, 2)
            let qy = Int((Double(pointer.screen.y - area.y) + 0.5 - Double(area.height) / 2) * 4 / Double(area.height)).clamped(-2, 2)
            events.send(.zoomedAt(MapZoomAt(delta: notches < 0 ? 1 : -1, x: qx, y: qy)))
            return true
        case .click:
            dragged = (0, 0)
            return area.contains(pointer.screen)
        case .drag(let dx, let dy):
            // Dragging right brings what is on the left into view: the view moves left.
            dragged.x += dx
            dragged.y += dy
            let stepX = max(1, area.width / 4), stepY = max(1, area.height / 4)
            while dragged.x >= stepX { events.send(.panned(.left)); dragged.x -= stepX }
            while dragged.x <= -stepX { events.send(.panned(.right)); dragged.x += stepX }
            while dragged.y >= stepY { events.send(.panned(.up)); dragged.y -= stepY }
            while dragged.y <= -stepY { events.send(.panned(.down)); dragged.y += stepY }
            return true
        }
    }

    public func cancel() {
        events.send(.dismissed)
    }
}

private extension Int {
    func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}
