/// Words given as data to be shown by a view model (a key's help), said in the language of the state
/// that shows them: a key of the strings, or a text already said (a key's name on the keyboard, or
/// words another view model's state made in its own language, such as a question's answers).
public enum Words: Equatable, Sendable {
    case key(L10nKey)
    case text(String)

    /// The words in `l10n`'s language.
    public func said(in l10n: L10n) -> String {
        switch self {
        case .key(let key): l10n[key]
        case .text(let text): text
        }
    }
}

/// A literal is a text already said: `"↑ ↓  j k"`, `"1-\(tabs)"`.
extension Words: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(stringInterpolation: DefaultStringInterpolation) { self = .text(String(stringInterpolation: stringInterpolation)) }
}
