# A synthetic OpenAPI 3.1 document of about 10 MB (or SIZE bytes), for Benchmarks/bench-yaml.sh and
# Benchmarks/bench-openapi.sh: block mappings and sequences, flow collections, quoted and block scalars, anchors and
# aliases, numbers; one GET operation per resource (/resources{i}/{id}/items), each with an example.
# Usage: python3 Benchmarks/openapi/synthetic-openapi.py OUT [SIZE]
import sys
out = []
w = out.append
w("openapi: 3.1.0\ninfo:\n  title: Synthetic API\n  version: '1.0.0'\n  description: |\n    A generated document\n    for benchmarks.\n")
w("x-error: &error\n  description: An error\n  content:\n    application/json:\n      schema: {$ref: '#/components/schemas/Error'}\n")
w("paths:\n")
i = 0
size = 0
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000
while size < limit:
    block = (
        f"  /resources{i}/{{id}}/items:\n"
        f"    get:\n"
        f"      operationId: list-items-{i}\n"
        f"      summary: List the items of resource {i}\n"
        f"      description: >-\n"
        f"        Lists the items of resource number {i}, folded over\n"
        f"        two lines, with a \"quote\" and a colon: here.\n"
        f"      tags: [items, \"resource-{i}\", 'group {i % 17}']\n"
        f"      parameters:\n"
        f"      - name: id\n"
        f"        in: path\n"
        f"        required: true\n"
        f"        schema: {{type: integer, minimum: 1, maximum: {i * 10 + 9}}}\n"
        f"      - name: per_page\n"
        f"        in: query\n"
        f"        schema:\n"
        f"          type: integer\n"
        f"          default: 30\n"
        f"          multipleOf: 0.5\n"
        f"      responses:\n"
        f"        200:\n"
        f"          description: OK # a comment\n"
        f"          content:\n"
        f"            application/json:\n"
        f"              example:\n"
        f"                - id: {i}\n"
        f"                  name: \"item \\u00e9 {i}\"\n"
        f"                  enabled: true\n"
        f"                  ratio: {i / 7:.4f}\n"
        f"                  owner: null\n"
        f"        '404': *error\n"
    )
    w(block)
    size += len(block)
    i += 1
w("components:\n  schemas:\n    Error:\n      type: object\n      properties:\n        message: {type: string}\n")
open(sys.argv[1], "w").write("".join(out))
