import Foundation
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim

/// The Current tab's root: how the city was found, then that city's detail.
@MainActor
public final class CurrentCityScreen: Screen {
    private let l10n: L10n
    private let appeared = PassthroughSubject<Void, Never>()
    private var cancellables: Set<AnyCancellable> = []
    private var state: CurrentLocationState?
    private var detail: Screen?
    private var started = false
    private let makeDetail: (City) -> Screen

    public var onNeedsDisplay: (() -> Void)?

    public init(viewModel: CurrentLocationViewModel, l10n: L10n, makeDetail: @escaping (City) -> Screen) {
        self.l10n = l10n
        self.makeDetail = makeDetail
        viewModel.transform(input: .init(appeared: appeared.eraseToAnyPublisher())).state
            .sink { [weak self] state in self?.apply(state) }
            .store(in: &cancellables)
    }

    private func apply(_ new: CurrentLocationState) {
        state = new
        if case .located(let city, _, _) = new.status, detail == nil {
            let screen = makeDetail(city)
            screen.onNeedsDisplay = { [weak self] in self?.onNeedsDisplay?() }
            detail = screen
        }
        onNeedsDisplay?()
    }

    // MARK: Screen

    public var capturesText: Bool { false }

    /// The detail's keys, without "back": this detail is the tab's root.
    public var hints: [KeyHint] {
        (detail?.hints ?? [KeyHint("?", l10n[.hintHelp]), KeyHint("q", l10n[.hintQuit])]).filter { $0.key != "Esc" }
    }

    public var help: [KeyHint] { (detail?.help ?? []).filter { !$0.key.hasPrefix("Esc") } }

    public func handle(_ key: Key) -> Bool {
        if key == .escape || key == .backspace { return false }
        return detail?.handle(key) ?? false
    }

    // MARK: Drawing

    public func draw(_ p: Painter, theme: Theme) {
        p.hideCursor()
        if !started {
            // Locating builds the spatial index, so it waits until the tab is first shown.
            started = true
            appeared.send()
        }
        guard p.width > 0, p.height > 0, let state else { return }
        var lines: [(String, Style)] = []
        switch state.status {
        case .locating:
            lines.append((l10n[.currentLocating], theme.dim))
        case .located(_, let summary, let approximate):
            lines.append((summary, approximate ? theme.warning : theme.dim))
        case .failed(let message):
            lines.append((message, theme.warning))
        }
        lines += state.warnings.map { ($0, theme.warning) }
        var y = 0
        for (text, style) in lines where y < p.height {
            p.text(DisplayWidth.truncate(DisplayWidth.sanitize(text), to: max(0, p.width - 1)), x: 1, y: y, style: style)
            y += 1
        }
        guard let detail, y < p.height else { return }
        detail.draw(p.sub(Rect(x: 0, y: y, width: p.width, height: p.height - y)), theme: theme)
    }
}
