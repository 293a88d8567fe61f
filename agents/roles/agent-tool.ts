/** A tool as offered to the assistant (OpenAI function form). */
export interface AgentTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
