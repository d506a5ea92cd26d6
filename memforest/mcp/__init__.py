"""The MCP server: memory tools for agents over the same services as the HTTP API.

``server`` builds the tool set, ``tools`` holds the operations (trees and nodes via ``store.browse``),
``http`` serves it at ``/mcp`` behind the API's bearer keys, ``stdio`` serves one local tenant.
"""
