/// The comparisons of XMLUnit (`org.xmlunit.diff.ComparisonType`) that an `equalToXml` matcher can exempt
/// (`"exemptedComparisons"`). Only the counted ones change anything; WireMock 2.35.1 ignores the others.
public enum XMLComparisonType: String, Sendable, Hashable, CaseIterable {
    case attrValueExplicitlySpecified = "ATTR_VALUE_EXPLICITLY_SPECIFIED"
    case hasDoctypeDeclaration = "HAS_DOCTYPE_DECLARATION"
    case doctypeName = "DOCTYPE_NAME"
    case doctypePublicID = "DOCTYPE_PUBLIC_ID"
    case doctypeSystemID = "DOCTYPE_SYSTEM_ID"
    case schemaLocation = "SCHEMA_LOCATION"
    case noNamespaceSchemaLocation = "NO_NAMESPACE_SCHEMA_LOCATION"
    case nodeType = "NODE_TYPE"
    case namespacePrefix = "NAMESPACE_PREFIX"
    case namespaceURI = "NAMESPACE_URI"
    case textValue = "TEXT_VALUE"
    case processingInstructionTarget = "PROCESSING_INSTRUCTION_TARGET"
    case processingInstructionData = "PROCESSING_INSTRUCTION_DATA"
    case elementTagName = "ELEMENT_TAG_NAME"
    case elementNumAttributes = "ELEMENT_NUM_ATTRIBUTES"
    case attrValue = "ATTR_VALUE"
    case childNodelistLength = "CHILD_NODELIST_LENGTH"
    case childNodelistSequence = "CHILD_NODELIST_SEQUENCE"
    case childLookup = "CHILD_LOOKUP"
    case attrNameLookup = "ATTR_NAME_LOOKUP"
    case xmlVersion = "XML_VERSION"
    case xmlStandalone = "XML_STANDALONE"
    case xmlEncoding = "XML_ENCODING"
}

/// How `equalToXml` compares: WireMock's `enablePlaceholders`, placeholder delimiters and
/// `exemptedComparisons`.
public struct XMLComparisonOptions: Sendable, Hashable {
    /// Whether `${xmlunit.ignore}`, `${xmlunit.isNumber}` and `${xmlunit.matchesRegex(…)}` in the expected
    /// document's text and attribute values are placeholders.
    public var enablePlaceholders: Bool
    /// A Java regular expression for the opening delimiter; `nil` for `\$\{`.
    public var openingDelimiterRegex: String?
    /// A Java regular expression for the closing delimiter; `nil` for `\}`.
    public var closingDelimiterRegex: String?
    /// Comparisons whose differences do not count.
    public var exemptedComparisons: Set<XMLComparisonType>

    /// Options; the defaults compare everything WireMock compares, without placeholders.
    public init(
        enablePlaceholders: Bool = false, openingDelimiterRegex: String? = nil, closingDelimiterRegex: String? = nil,
        exemptedComparisons: Set<XMLComparisonType> = []
    ) {
        self.enablePlaceholders = enablePlaceholders
        self.openingDelimiterRegex = openingDelimiterRegex
        self.closingDelimiterRegex = closingDelimiterRegex
        self.exemptedComparisons = exemptedComparisons
    }
}

/// Why comparison options cannot be used: a delimiter or placeholder regular expression that does not
/// compile.
public struct XMLOptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the option.
    public var message: String
    /// An error with its message.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
