/** Our own short descriptions of the schemas we vendor (upstream prose is not copied). */
export const GEMINI_DESCRIPTIONS: Readonly<Record<string, string>> = {
  FunctionDeclaration: 'A function the model may call: its name, description and parameter schema.',
  FunctionCall: 'A call the model asks the client to make: a function name and its arguments.',
  FunctionResponse:
    "The client's answer to a function call: the name, a JSON object response, media parts.",
  FunctionResponsePart: 'Media that travels with a function response.',
  FunctionResponseBlob: 'Inline bytes (base64) of a function response part, with their MIME type.',
  Part: 'One piece of a Content: text, inline data, a function call or response, and so on; exactly one of them.',
  Blob: 'Inline bytes (base64) with their MIME type.',
  FileData: 'Media referenced by URI.',
  Content: 'One turn of a conversation: a role and its parts.',
  Tool: 'A group of tools offered to the model, among them function declarations.',
  ToolConfig: 'How the model may use the tools of a request.',
  FunctionCallingConfig: 'Function calling mode and the names the model may call.',
  Schema: "Gemini's OpenAPI 3.0 subset for function parameters and responses.",
  GenerateContentRequest: 'The body of a generateContent request.',
  GenerateContentResponse: 'A generateContent response, or one chunk of a stream.',
  Candidate: 'One answer of the model, with why it finished.',
  PromptFeedback: 'Why a prompt was blocked, if it was.',
};

export const MCP_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Tool: 'An MCP tool as a server lists it.',
  ListToolsResult: 'The result of an MCP tools/list request.',
  CallToolRequestParams: 'The params of an MCP tools/call request.',
  CallToolResult: 'The result of an MCP tools/call request.',
  ContentBlock: 'One block of an MCP tool result.',
  TextContent: 'Text in an MCP result.',
  ImageContent: 'An image (base64) in an MCP result.',
  AudioContent: 'Audio (base64) in an MCP result.',
  ResourceLink: 'A link to an MCP resource.',
  EmbeddedResource: 'An MCP resource embedded in a result.',
  TextResourceContents: 'The text contents of an MCP resource.',
  BlobResourceContents: 'The binary (base64) contents of an MCP resource.',
};
