/// The events of one YAML stream, after PyYAML's parser: a state machine over the scanner's tokens, with its pending
/// states in an array (no recursion, so nesting costs no stack).
struct YAMLNodeProperties {
    var anchor: String?
    var tag: String?
    var tagStart = 0
}

enum YAMLEvent {
    case streamEnd
    case documentStart(at: Int)
    case documentEnd
    case alias(String, at: Int)
    case scalar(String, YAMLNodeProperties, plain: Bool, at: Int)
    case sequenceStart(YAMLNodeProperties, at: Int)
    case sequenceEnd
    case mappingStart(YAMLNodeProperties, at: Int)
    case mappingEnd
}

struct YAMLParser {
    private enum State {
        case streamStart, documentStart, documentEnd, documentContent
        case blockNode, blockNodeOrIndentlessSequence, flowNode
        case blockSequenceFirstEntry, blockSequenceEntry, indentlessSequenceEntry
        case blockMappingFirstKey, blockMappingKey, blockMappingValue
        case flowSequenceFirstEntry, flowSequenceEntry, flowSequenceEntryMappingKey, flowSequenceEntryMappingValue
        case flowSequenceEntryMappingEnd
        case flowMappingFirstKey, flowMappingKey, flowMappingValue, flowMappingEmptyValue
        case end
    }

    private var scanner: YAMLScanner
    private var state = State.streamStart
    private var states: [State] = []
    private var documents = 0

    init(scanner: YAMLScanner) { self.scanner = scanner }

    mutating func next() throws(YAMLFailure) -> YAMLEvent {
        switch state {
        case .streamStart:
            let kind = try scanner.peekKind()
            if kind != .directive && kind != .documentStart && kind != .streamEnd {
                documents = 1
                states.append(.documentEnd)
                state = .blockNode
                return .documentStart(at: try scanner.peekToken().start)
            }
            return try parseDocumentStart()
        case .documentStart: return try parseDocumentStart()
        case .documentEnd:
            let token = try scanner.peekToken()
            switch token.kind {
            case .documentEnd: try scanner.nextToken()
            case .streamEnd, .documentStart, .directive: break
            default: throw YAMLFailure("expected the end of the document, found \(token.name)", at: token.start)
            }
            state = .documentStart
            return .documentEnd
        case .documentContent:
            let kind = try scanner.peekKind()
            if kind == .directive || kind == .documentStart || kind == .documentEnd || kind == .streamEnd {
                state = states.removeLast()
                return emptyScalar(at: try scanner.peekToken().start)
            }
            return try parseNode(block: true, indentlessSequence: false)
        case .blockNode: return try parseNode(block: true, indentlessSequence: false)
        case .blockNodeOrIndentlessSequence: return try parseNode(block: true, indentlessSequence: true)
        case .flowNode: return try parseNode(block: false, indentlessSequence: false)
        case .blockSequenceFirstEntry:
            try scanner.nextToken()
            return try parseBlockSequenceEntry()
        case .blockSequenceEntry: return try parseBlockSequenceEntry()
        case .indentlessSequenceEntry:
            let token = try scanner.peekToken()
            if token.kind == .blockEntry {
                try scanner.nextToken()
                let next = try scanner.peekToken()
                switch next.kind {
                case .blockEntry, .key, .value, .blockEnd:
                    state = .indentlessSequenceEntry
                    return emptyScalar(at: next.start)
                default:
                    states.append(.indentlessSequenceEntry)
                    return try parseNode(block: true, indentlessSequence: false)
                }
            }
            state = states.removeLast()
            return .sequenceEnd
        case .blockMappingFirstKey:
            try scanner.nextToken()
            return try parseBlockMappingKey()
        case .blockMappingKey: return try parseBlockMappingKey()
        case .blockMappingValue:
            let token = try scanner.peekToken()
            if token.kind == .value {
                try scanner.nextToken()
                let next = try scanner.peekToken()
                switch next.kind {
                case .key, .value, .blockEnd:
                    state = .blockMappingKey
                    return emptyScalar(at: next.start)
                default:
                    states.append(.blockMappingKey)
                    return try parseNode(block: true, indentlessSequence: true)
                }
            }
            state = .blockMappingKey
            return emptyScalar(at: token.start)
        case .flowSequenceFirstEntry:
            try scanner.nextToken()
            return try parseFlowSequenceEntry(first: true)
        case .flowSequenceEntry: return try parseFlowSequenceEntry(first: false)
        case .flowSequenceEntryMappingKey:
            try scanner.nextToken()
            let next = try scanner.peekToken()
            switch next.kind {
            case .value, .flowEntry, .flowSequenceEnd:
                state = .flowSequenceEntryMappingValue
                return emptyScalar(at: next.start)
            default:
                states.append(.flowSequenceEntryMappingValue)
                return try parseNode(block: false, indentlessSequence: false)
            }
        case .flowSequenceEntryMappingValue:
            let token = try scanner.peekToken()
            if token.kind == .value {
                try scanner.nextToken()
                let next = try scanner.peekToken()
                if next.kind != .flowEntry && next.kind != .flowSequenceEnd {
                    states.append(.flowSequenceEntryMappingEnd)
                    return try parseNode(block: false, indentlessSequence: false)
                }
                state = .flowSequenceEntryMappingEnd
                return emptyScalar(at: next.start)
            }
            state = .flowSequenceEntryMappingEnd
            return emptyScalar(at: token.start)
        case .flowSequenceEntryMappingEnd:
            state = .flowSequenceEntry
            return .mappingEnd
        case .flowMappingFirstKey:
            try scanner.nextToken()
            return try parseFlowMappingKey(first: true)
        case .flowMappingKey: return try parseFlowMappingKey(first: false)
        case .flowMappingValue:
            let token = try scanner.peekToken()
            if token.kind == .value {
                try scanner.nextToken()
                let next = try scanner.peekToken()
                if next.kind != .flowEntry && next.kind != .flowMappingEnd {
                    states.append(.flowMappingKey)
                    return try parseNode(block: false, indentlessSequence: false)
                }
                state = .flowMappingKey
                return emptyScalar(at: next.start)
            }
            state = .flowMappingKey
            return emptyScalar(at: token.start)
        case .flowMappingEmptyValue:
            state = .flowMappingKey
            return emptyScalar(at: try scanner.peekToken().start)
        case .end:
            return .streamEnd
        }
    }

    private func emptyScalar(at offset: Int) -> YAMLEvent {
        .scalar("", YAMLNodeProperties(), plain: true, at: offset)
    }

    private mutating func parseDocumentStart() throws(YAMLFailure) -> YAMLEvent {
        while try scanner.peekKind() == .documentEnd { try scanner.nextToken() }
        var token = try scanner.peekToken()
        if token.kind == .streamEnd {
            state = .end
            return .streamEnd
        }
        if documents > 0 {
            throw YAMLFailure("a stream with more than one document: a second document starts here", at: token.start)
        }
        documents = 1
        let start = token.start
        while token.kind == .directive {
            try scanner.nextToken()
            token = try scanner.peekToken()
        }
        guard token.kind == .documentStart else {
            throw YAMLFailure("expected '---' after directives, found \(token.name)", at: token.start)
        }
        try scanner.nextToken()
        states.append(.documentEnd)
        state = .documentContent
        return .documentStart(at: start)
    }

    private mutating func parseNode(block: Bool, indentlessSequence: Bool) throws(YAMLFailure) -> YAMLEvent {
        var token = try scanner.peekToken()
        if token.kind == .alias {
            try scanner.nextToken()
            state = states.removeLast()
            return .alias(token.value, at: token.start)
        }
        var properties = YAMLNodeProperties()
        let start = token.start
        var sawProperty = false
        while token.kind == .anchor || token.kind == .tag {
            if token.kind == .anchor {
                if properties.anchor != nil { throw YAMLFailure("a node with two anchors", at: token.start) }
                properties.anchor = token.value
            } else {
                if properties.tag != nil { throw YAMLFailure("a node with two tags", at: token.start) }
                properties.tag = token.value
                properties.tagStart = token.start
            }
            sawProperty = true
            try scanner.nextToken()
            token = try scanner.peekToken()
        }
        if indentlessSequence && token.kind == .blockEntry {
            state = .indentlessSequenceEntry
            return .sequenceStart(properties, at: token.start)
        }
        switch token.kind {
        case .scalar:
            try scanner.nextToken()
            state = states.removeLast()
            return .scalar(
                token.value, properties, plain: token.style == .plain && properties.tag == nil, at: token.start)
        case .flowSequenceStart:
            state = .flowSequenceFirstEntry
            return .sequenceStart(properties, at: token.start)
        case .flowMappingStart:
            state = .flowMappingFirstKey
            return .mappingStart(properties, at: token.start)
        case .blockSequenceStart where block:
            state = .blockSequenceFirstEntry
            return .sequenceStart(properties, at: token.start)
        case .blockMappingStart where block:
            state = .blockMappingFirstKey
            return .mappingStart(properties, at: token.start)
        default:
            if sawProperty {
                state = states.removeLast()
                return .scalar("", properties, plain: properties.tag == nil, at: start)
            }
            throw YAMLFailure("expected a node, found \(token.name)", at: token.start)
        }
    }

    private mutating func parseBlockSequenceEntry() throws(YAMLFailure) -> YAMLEvent {
        let token = try scanner.peekToken()
        if token.kind == .blockEntry {
            try scanner.nextToken()
            let next = try scanner.peekToken()
            if next.kind == .blockEntry || next.kind == .blockEnd {
                state = .blockSequenceEntry
                return emptyScalar(at: next.start)
            }
            states.append(.blockSequenceEntry)
            return try parseNode(block: true, indentlessSequence: false)
        }
        guard token.kind == .blockEnd else {
            throw YAMLFailure("expected a '- ' sequence entry, found \(token.name)", at: token.start)
        }
        try scanner.nextToken()
        state = states.removeLast()
        return .sequenceEnd
    }

    private mutating func parseBlockMappingKey() throws(YAMLFailure) -> YAMLEvent {
        let token = try scanner.peekToken()
        if token.kind == .key {
            try scanner.nextToken()
            let next = try scanner.peekToken()
            if next.kind == .key || next.kind == .value || next.kind == .blockEnd {
                state = .blockMappingValue
                return emptyScalar(at: next.start)
            }
            states.append(.blockMappingValue)
            return try parseNode(block: true, indentlessSequence: true)
        }
        if token.kind == .value {
            // `: value` with no key: an empty key.
            state = .blockMappingValue
            return emptyScalar(at: token.start)
        }
        guard token.kind == .blockEnd else {
            throw YAMLFailure("expected a mapping key, found \(token.name)", at: token.start)
        }
        try scanner.nextToken()
        state = states.removeLast()
        return .mappingEnd
    }

    private mutating func parseFlowSequenceEntry(first: Bool) throws(YAMLFailure) -> YAMLEvent {
        var token = try scanner.peekToken()
        if token.kind != .flowSequenceEnd {
            if !first {
                guard token.kind == .flowEntry else {
                    throw YAMLFailure("expected ',' or ']' in a flow sequence, found \(token.name)", at: token.start)
                }
                try scanner.nextToken()
                token = try scanner.peekToken()
            }
            if token.kind == .key {
                state = .flowSequenceEntryMappingKey
                return .mappingStart(YAMLNodeProperties(), at: token.start)
            }
            if token.kind != .flowSequenceEnd {
                states.append(.flowSequenceEntry)
                return try parseNode(block: false, indentlessSequence: false)
            }
        }
        try scanner.nextToken()
        state = states.removeLast()
        return .sequenceEnd
    }

    private mutating func parseFlowMappingKey(first: Bool) throws(YAMLFailure) -> YAMLEvent {
        var token = try scanner.peekToken()
        if token.kind != .flowMappingEnd {
            if !first {
                guard token.kind == .flowEntry else {
                    throw YAMLFailure("expected ',' or '}' in a flow mapping, found \(token.name)", at: token.start)
                }
                try scanner.nextToken()
                token = try scanner.peekToken()
            }
            if token.kind == .key {
                try scanner.nextToken()
                let next = try scanner.peekToken()
                if next.kind != .value && next.kind != .flowEntry && next.kind != .flowMappingEnd {
                    states.append(.flowMappingValue)
                    return try parseNode(block: false, indentlessSequence: false)
                }
                state = .flowMappingValue
                return emptyScalar(at: next.start)
            }
            if token.kind != .flowMappingEnd {
                states.append(.flowMappingEmptyValue)
                return try parseNode(block: false, indentlessSequence: false)
            }
        }
        try scanner.nextToken()
        state = states.removeLast()
        return .mappingEnd
    }
}
