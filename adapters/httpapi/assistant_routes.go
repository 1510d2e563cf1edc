package httpapi

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/projections"
)

// AssistantCommands are the chat assistant's use cases.
type AssistantCommands interface {
	AskAssistant(ctx context.Context, p commands.Principal, r commands.AskAssistant) (commands.AssistantAsked, error)
	StopAssistant(ctx context.Context, p commands.Principal, r commands.StopAssistant) (commands.AssistantStopped, error)
	AssistantSetting(ctx context.Context, p commands.Principal) (commands.AssistantSetting, error)
	ChooseAssistantModel(ctx context.Context, p commands.Principal, r commands.ChooseAssistantModel) (commands.AssistantSetting, error)
	AssistantModels(ctx context.Context, p commands.Principal, tenantID string) ([]string, error)
}

// pathAsk is the route the per-member limit counts.
const pathAsk = "/assistant/ask"

func (a *API) assistantRoutes() []route {
	return []route{
		commandRoute(a, http.MethodPost, pathAsk,
			"Ask the chat assistant (content 1 to 4000 characters; model: one of the tenant's, default the member's modelGpt). "+
				"The answer streams to the member's connections as push 70 {type:\"delta\"} and ends with 70 {type:\"answered\"}; "+
				"one question at a time (409 while one is answered); 20 questions a minute per member (429); "+
				"403 when the tenant turned the assistant off or did not set it up.",
			Commands.AskAssistant),
		commandRoute(a, http.MethodPut, "/assistant/stop",
			"Stop the answer of one of the member's questions: what was written is kept, marked Stopped. An answer that ended answers position 0; another member's question is 404.",
			Commands.StopAssistant),
		{method: http.MethodGet, path: "/assistant/history",
			summary: "The member's conversation with the assistant, newest first: each question (role user) and answer (role assistant, with its outcome).",
			query:   []param{{"curPage", false, "page, from 1"}, {"pageSize", false, "1 to 200, default 20"}},
			result:  PersonalPage[projections.AssistantItem]{},
			handle:  personalList[projections.AssistantItem](a, projections.KindAssistant, defaultPersonalPage)},
		{method: http.MethodGet, path: "/assistant/setting",
			summary: "The member's GPT settings (memberId, modelGpt), the tenant's models and whether its assistant is on and set up.",
			result:  commands.AssistantSetting{}, handle: func(c echo.Context, p commands.Principal) error {
				return answer(c)(a.deps.Commands.AssistantSetting(c.Request().Context(), p))
			}},
		commandRoute(a, http.MethodPut, "/assistant/setting", "Save the member's model (modelGpt), one of the tenant's.",
			Commands.ChooseAssistantModel),
		{method: http.MethodGet, path: "/api/model-list/:tenantId",
			summary: "The models the member's tenant offers its assistant; another tenant's list is 404.",
			result:  []string{}, handle: func(c echo.Context, p commands.Principal) error {
				return answer(c)(a.deps.Commands.AssistantModels(c.Request().Context(), p, c.Param("tenantId")))
			}},
	}
}
