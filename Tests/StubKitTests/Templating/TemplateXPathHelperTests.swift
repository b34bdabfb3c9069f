import Testing

@testable import StubKit

/// xPath and soapXPath: WireMock 2.35.1's output (the jar, `--local-response-templating`) and its
/// HandlebarsXPathHelperTest.
@Suite("Response templates: xPath and soapXPath")
struct TemplateXPathHelperTests {
    static let body =
        #"<a><test outcome="success">success</test><item id="1">One</item><item id="2">Two<b>x</b></item><empty/></a>"#
    static let soap =
        #"<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope/"><soap:Body><m:GetPrice xmlns:m="https://www.w3schools.com/prices"><m:Item>Apples</m:Item></m:GetPrice></soap:Body></soap:Envelope>"#

    static let rows: [TemplateRow] = [
        TemplateRow(
            "A[{{xPath request.body '/a/test/text()'}}]B[{{xPath request.body '/a/test/@outcome'}}]C[{{{xPath request.body '/a/test'}}}]E[{{xPath request.body '/b/test'}}]",
            "A[success]B[success]C[<test outcome=\"success\">success</test>\n]E[]", method: "POST", body: body),
        TemplateRow(
            "D[{{{xPath request.body '/a'}}}]",
            "D[<a>\n  <test outcome=\"success\">success</test>\n  <item id=\"1\">One</item>\n  <item id=\"2\">\n    Two\n    <b>x</b>\n  </item>\n  <empty/>\n</a>\n]",
            method: "POST", body: body),
        TemplateRow(
            "F[{{{xPath request.body '/a/item'}}}]G[{{{xPath request.body '/a/item/text()'}}}]H[{{#each (xPath request.body '/a/item') as |t|}}{{{t.name}}}={{{t.text}}}/{{{t.attributes.id}}};{{/each}}]I[{{size (xPath request.body '/a/item')}}]",
            "F[<item id=\"1\">One</item>\n]G[One]H[item=One/1;item=Twox/2;]I[2]", method: "POST", body: body),
        TemplateRow(
            "J[{{xPath request.body '/a/test'}}]K[{{{xPath request.body '/a/empty'}}}]L[{{{xPath request.body 'count(/a/item)'}}}]M[{{{xPath request.body '/a/item[1]/@id'}}}]N[{{{xPath request.body '//@id'}}}]",
            "J[&lt;test outcome&#x3D;&quot;success&quot;&gt;success&lt;/test&gt;\n]K[<empty/>\n]L[[ERROR: count(/a/item) is not a valid XPath expression]]M[1]N[1]",
            method: "POST", body: body),
        TemplateRow(
            "A[{{xPath request.body '/test'}}]B[{{xPath request.body '/\\test'}}]C[{{xPath request.body}}]",
            "A[[ERROR: &lt;testsuccess&lt;/test&gt; is not valid XML]]B[[ERROR: &lt;testsuccess&lt;/test&gt; is not valid XML]]C[[ERROR: The XPath expression cannot be empty]]",
            method: "POST", body: "<testsuccess</test>"),
        TemplateRow(
            "A[{{xPath request.body '/test'}}]B[{{xPath request.body '/\\test'}}]",
            "A[&lt;test&gt;ok&lt;/test&gt;\n]B[[ERROR: /\\test is not a valid XPath expression]]", method: "POST",
            body: "<test>ok</test>"),
        TemplateRow(
            "A[{{xPath request.body '/s'}}]F[{{xPath request.query.x '/s'}}]",
            "A[[ERROR:  is not valid XML]]F[[ERROR: null is not valid XML]]", method: "POST"),
        TemplateRow(
            "A[{{{soapXPath request.body 'm:GetPrice/m:Item/text()'}}}]B[{{{soapXPath request.body 'GetPrice/Item/text()'}}}]C[{{{soapXPath request.body 'GetPrice'}}}]D[{{{xPath request.body '/Envelope/Body/GetPrice/Item'}}}]",
            "A[]B[Apples]C[<m:GetPrice xmlns:m=\"https://www.w3schools.com/prices\">\n  <m:Item>Apples</m:Item>\n</m:GetPrice>\n]D[<m:Item>Apples</m:Item>\n]",
            method: "POST", body: soap),
        TemplateRow(
            "A[{{{xPath request.body '/a/item'}}}]B[{{#each (xPath request.body '/a/item/text()') as |t|}}{{t}};{{/each}}]C[{{{xPath request.body '/a/item[1]'}}}]F[{{#if (xPath request.body '/a/none')}}yes{{else}}no{{/if}}]G[{{{xPath request.body '/a/comment()'}}}]H[{{{xPath request.body 'name(/a)'}}}]I[{{{xPath request.body '/a/item[1]/text()'}}}]",
            "A[<item id=\"1\">One</item>\n]B[One;Two;]C[<item id=\"1\">One</item>\n]F[no]G[[#comment:  c ]]H[[ERROR: name(/a) is not a valid XPath expression]]I[One]",
            method: "POST", body: "<a><!-- c --><item id=\"1\">One</item>\n  <item>Two</item></a>"),
        TemplateRow(
            "A[{{#each (xPath request.body '/s/*') as |t|}}{{{t.name}}}|{{{t.text}}}|{{{t.attributes}}}|{{{t}}};{{/each}}]B[{{{xPath request.body '/s/th:thing'}}}]E[{{{xPath request.body '/s/plain'}}}]",
            "A[th:thing|One|{b=2, id=9}|<th:thing b=\"2\" id=\"9\">One</th:thing>\n;plain|P<x>|{}|<plain>P<![CDATA[<x>]]></plain>\n;]B[]E[<plain>P<![CDATA[<x>]]></plain>\n]",
            method: "POST",
            body: #"<s xmlns:th="urn:t"><th:thing id="9" b="2">One</th:thing><plain>P<![CDATA[<x>]]></plain></s>"#),
        // HandlebarsXPathHelperTest
        TemplateRow(
            "{{#each (xPath request.body '/stuff/thing') as |thing|}}{{{thing.text}}} {{/each}}|{{#each (xPath request.body '/stuff/*') as |thing|}}{{{thing.name}}} {{/each}}",
            "One Two Three |th:thing th:thing th:thing ", method: "POST",
            body:
                "<?xml version=\"1.0\"?>\n<stuff xmlns:th=\"https://thing.com\">\n    <th:thing>One</th:thing>\n    <th:thing>Two</th:thing>\n    <th:thing>Three</th:thing>\n</stuff>"
        )
    ]

    @Test("xPath and soapXPath render as in WireMock 2.35.1", arguments: rows)
    func renders(_ row: TemplateRow) throws {
        let rendered = try row.render()
        #expect(rendered == row.expected)
    }
}
