// Generated from /openapi.json by scripts/openapi.ts (openapi-typescript). Do not edit.
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Process is up */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Store reachable and migrated; Redis (optional) reported as ok or degraded; warnings about the configuration, if any */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign up (creates a personal team) */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/app/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether anyone has signed up yet (nothing else is told) */
        get: operations["anyUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log in and get a session token */
        post: operations["logIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/invited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign up through an invitation link, straight into its team (also when sign-up is closed) */
        post: operations["signUpInvited"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The running version; never an update to announce (no outbound call) */
        get: operations["checkForUpdates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chart/share/{share_string}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A shared chart for embedding: needs a share token of its chart policy, unless the chart is public */
        get: operations["getSharedChart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/dashboard/{brewName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A shared dashboard with its report charts and their data: needs a share token unless public; the password in the "pass" header when protected */
        get: operations["getSharedDashboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{brewName}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The report of Chartbrew's web app: the same answer and rules as GET /project/dashboard/{brewName}; needs a share token unless public; the password in the "pass" header when protected */
        get: operations["getSharedReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/filter": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The chart computed for a filter state, never saved. Members with read rights (bearer token); viewers of a shared report: the token (query or body) and password ("pass" header or body) of the report, report charts only, report filters only */
        post: operations["filterChart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/dashboard/{brewName}/filter": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A shared report's charts (or those of chartIds) computed for the viewer's states of the report's filters, never saved: token (query or body) and password ("pass" header or body) as for the report */
        post: operations["filterSharedDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/dashboard/{brewName}/filter/{fid}/values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The values a shared report's filter offers in its dropdown (a report filter with valuesFrom): token and password as for the report */
        get: operations["getSharedFilterValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chart/share/{share_string}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A shared chart's data as a file, when the team allows report exports */
        get: operations["exportSharedChart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/dashboard/{brewName}/chart/{chart_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A report chart's data as a file, when the team allows report exports */
        get: operations["exportSharedDashboardChart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/unsubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The unsubscribe confirmation page of a delivery e-mail (changes nothing) */
        get: operations["unsubscribePage"];
        put?: never;
        /** Unsubscribe the address of the link from its delivery (also the RFC 8058 one-click target) */
        post: operations["unsubscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/image/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The picture a signed image link names (a chart PNG/SVG or a dashboard PNG/PDF), until the link expires; 401 IMAGE_LINK_INVALID or IMAGE_LINK_EXPIRED */
        get: operations["signedImage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the current session */
        post: operations["logOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/relog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Renew the caller's session: a new 30-day token; the one presented ends five minutes later */
        post: operations["renewSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's teams with their projects */
        get: operations["listTeams"];
        put?: never;
        /** Create a team (caller becomes teamOwner) */
        post: operations["createTeam"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a team */
        get: operations["getTeam"];
        /** Update name and flags (teamOwner, teamAdmin) */
        put: operations["updateTeam"];
        post?: never;
        /** Delete a team and everything it owns (teamOwner) */
        delete: operations["deleteTeam"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/user/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's teams visible to the caller */
        get: operations["listUserTeams"];
        put?: never;
        /** Join the team of an invitation link (Chartbrew's call; `user_id` is the caller) */
        post: operations["acceptInvitationForUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List members: every member for teamOwner and teamAdmin; a project role's own row only */
        get: operations["listMembers"];
        put?: never;
        /** Add an existing user to the team */
        post: operations["addMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a member's role or projects */
        put: operations["updateMember"];
        post?: never;
        /** Remove a member (or leave the team) */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a member's role, projects or export right, the member named by user_id (Chartbrew's route; PUT /team/{team_id}/members/{user_id} is the same) */
        put: operations["updateTeamRole"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/member/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member (Chartbrew's route; DELETE /team/{team_id}/members/{user_id} is the same) */
        delete: operations["removeTeamMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's invitations, newest first (never their links) */
        get: operations["listInvitations"];
        put?: never;
        /** Invite someone to the team (the link is shown once; e-mailed when the body names an address and SMTP is configured) */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/invite/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether invitations that name an address are e-mailed (an SMTP server is configured on this instance) */
        get: operations["getInvitationEmail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/invite/{invite_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an invitation: its link stops working at once (listed afterwards as revoked) */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/invite/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join the team with an invitation link, signed in as the invited person */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/apikey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the team's API keys */
        get: operations["listTeamApiKeys"];
        put?: never;
        /** Create a team API key (token shown once) */
        post: operations["createTeamApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/apikey/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an API key (stops working at once) */
        delete: operations["deleteTeamApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/apikey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your personal API keys */
        get: operations["listPersonalApiKeys"];
        put?: never;
        /** Create a personal API key: acts as you in all your teams, at most at its ceiling (token shown once) */
        post: operations["createPersonalApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/user/apikey/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a personal API key (stops working at once) */
        delete: operations["deletePersonalApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the team's datasets */
        get: operations["listDatasets"];
        put?: never;
        /** Create a dataset (fetches nothing; add data requests next) */
        post: operations["createDataset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/quick-create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a dataset with its data requests, joins (by index) and variable bindings in one transaction */
        post: operations["quickCreateDataset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/{dataset_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a dataset */
        get: operations["getDataset"];
        /** Update any subset of a dataset’s fields */
        put: operations["updateDataset"];
        post?: never;
        /** Delete a dataset, its data requests and bindings (answers a bare true) */
        delete: operations["deleteDataset"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/{dataset_id}/dataRequests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a dataset's data requests */
        get: operations["listDataRequests"];
        put?: never;
        /** Create a data request */
        post: operations["createDataRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a data request */
        get: operations["getDataRequest"];
        /** Update a data request */
        put: operations["updateDataRequest"];
        post?: never;
        /** Delete a data request */
        delete: operations["deleteDataRequest"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Bind a variable (answers the data request) */
        post: operations["createVariableBinding"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/variableBindings/{variable_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Update a variable binding (answers the data request) */
        put: operations["updateVariableBinding"];
        post?: never;
        /** Remove a variable binding (answers the data request) */
        delete: operations["deleteVariableBinding"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run one data request */
        post: operations["runDataRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/{dataset_id}/dataRequests/{id}/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run an unsaved draft of a data request (its query replaced, nothing saved)
         * @description Runs `query` in place of the saved query, on the request's connection with its variable bindings, the same statement check, bound variables and limits. Needs the right to write datasets. A client that goes away cancels the query on the source.
         */
        post: operations["runDataRequestDraft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/{dataset_id}/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Run a dataset */
        get: operations["runDatasetGet"];
        put?: never;
        /** Run a dataset (inputs in the body) */
        post: operations["runDataset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/{dataset_id}/values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The distinct values of one field of the dataset's result, for a filter dropdown (sorted, searchable, cached) */
        get: operations["listDatasetValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compute the data of an unsaved chart (the quick-create body) without writing anything
         * @description Takes the body of `POST /project/{project_id}/chart/quick-create` (name optional, at least one chart dataset config) plus the runtime `variables` and `filters` of a chart run, and answers the chartData a run of that chart would compute once saved. Nothing is stored, cached or recorded. Needs the rights to run and to write charts on the dashboard; every `dataset_id` must be a dataset of the team that the caller may use (otherwise 404). Row limits apply as in chart runs (`truncated`).
         */
        post: operations["previewChart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run the chart: compute chartData on the server (saved, recorded as a manual refresh, unless runtime filters or variables are given) */
        post: operations["runChart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refresh every chart of the dashboard now (saved), a few at a time; answers the run with each chart's outcome (no body) */
        post: operations["refreshDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dashboard's refreshes (manual, scheduled, auto-update), newest first */
        get: operations["getProjectByIdRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The refreshes a chart took part in, newest first, with that chart's entry */
        get: operations["getProjectByProjectIdChartByIdRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/alert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chart's alerts */
        get: operations["getProjectByProjectIdChartByIdAlert"];
        put?: never;
        /** Create an alert (the webhook key is shown in this answer only) */
        post: operations["postProjectByProjectIdChartByIdAlert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/alert/{alert_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An alert with its latest events */
        get: operations["getProjectByProjectIdChartByIdAlertByAlertId"];
        /** Update an alert */
        put: operations["putProjectByProjectIdChartByIdAlertByAlertId"];
        post?: never;
        /** Delete an alert */
        delete: operations["deleteProjectByProjectIdChartByIdAlertByAlertId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/alert/{alert_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the alert now as a test, through each of its mediums (not kept as an event) */
        post: operations["postProjectByProjectIdChartByIdAlertByAlertIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/alert-mediums": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Which ways of notifying this server offers for the chart's alerts (email needs an SMTP server) */
        get: operations["getProjectByProjectIdChartByIdAlertMediums"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/delivery-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What this dashboard's deliveries can use: email (an SMTP server), Slack, the team's setting for outside addresses */
        get: operations["getProjectDeliveryStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the dashboard's scheduled deliveries */
        get: operations["listProjectSubscriptions"];
        put?: never;
        /** Create a scheduled delivery of the dashboard (a webhook's signing key is shown in this answer only) */
        post: operations["createProjectSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/subscriptions/{sid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A scheduled delivery */
        get: operations["getProjectSubscription"];
        /** Update a scheduled delivery (`active: false` pauses it, `true` resumes it) */
        put: operations["updateProjectSubscription"];
        post?: never;
        /** Delete a scheduled delivery */
        delete: operations["deleteProjectSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/subscriptions/{sid}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send now: refresh, draw and send to every recipient (one try each; scheduled deliveries retry); answers the recorded run */
        post: operations["sendProjectSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/subscriptions/{sid}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery history, newest first */
        get: operations["listProjectSubscriptionRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the chart's scheduled deliveries */
        get: operations["listChartSubscriptions"];
        put?: never;
        /** Create a scheduled delivery of the chart (a webhook's signing key is shown in this answer only) */
        post: operations["createChartSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/subscriptions/{sid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A scheduled delivery */
        get: operations["getChartSubscription"];
        /** Update a scheduled delivery (`active: false` pauses it, `true` resumes it) */
        put: operations["updateChartSubscription"];
        post?: never;
        /** Delete a scheduled delivery */
        delete: operations["deleteChartSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/subscriptions/{sid}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send now: refresh, draw and send to every recipient (one try each; scheduled deliveries retry); answers the recorded run */
        post: operations["sendChartSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/subscriptions/{sid}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery history, newest first */
        get: operations["listChartSubscriptionRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/integration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's alert integrations (URLs show their origin only) */
        get: operations["listIntegrations"];
        put?: never;
        /** Add a webhook or Slack incoming-webhook integration (teamOwner, teamAdmin); the signing key is shown in this answer only */
        post: operations["createIntegration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/integration/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An alert integration */
        get: operations["getIntegration"];
        /** Rename an integration or change its URL or Slack mode; the URL as answered (or "********") keeps the stored one */
        put: operations["updateIntegration"];
        post?: never;
        /** Delete an integration; alerts stop notifying it */
        delete: operations["deleteIntegration"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/savedQuery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's saved queries, of one connection type with ?type= (teamOwner, teamAdmin) */
        get: operations["listSavedQueries"];
        put?: never;
        /** Save a query for later (teamOwner, teamAdmin) */
        post: operations["createSavedQuery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/savedQuery/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change a saved query (teamOwner, teamAdmin) */
        put: operations["updateSavedQuery"];
        post?: never;
        /** Delete a saved query (answers true, as Chartbrew does) */
        delete: operations["deleteSavedQuery"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/team/{team_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's dashboards the caller may see */
        get: operations["listProjects"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a dashboard in body.team_id (teamOwner, teamAdmin) */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A dashboard with its charts and share policies */
        get: operations["getProject"];
        /** Update a dashboard (password is write-only) */
        put: operations["updateProject"];
        post?: never;
        /** Delete a dashboard, its charts and share policies (teamOwner, teamAdmin) */
        delete: operations["deleteProject"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A dashboard's charts with their dataset configs */
        get: operations["listCharts"];
        put?: never;
        /** Create a chart (chartData is server-owned) */
        post: operations["createChart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/quick-create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a chart with its chartDatasetConfigs in one transaction */
        post: operations["quickCreateChart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A chart with its dataset configs */
        get: operations["getChart"];
        /** Update a chart (any subset of fields) */
        put: operations["updateChart"];
        post?: never;
        /** Delete a chart, its configs and share policies */
        delete: operations["deleteChart"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/chart-dataset-config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Bind a dataset of the team to the chart */
        post: operations["createChartDatasetConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/chart-dataset-config/{cdc_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Update a chart dataset config (any subset of fields) */
        put: operations["updateChartDatasetConfig"];
        post?: never;
        /** Delete a chart dataset config */
        delete: operations["deleteChartDatasetConfig"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/dashboard-filter": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a filter after the dashboard's last one (editors: teamOwner, teamAdmin, projectAdmin, projectEditor) */
        post: operations["createDashboardFilter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/dashboard-filters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dashboard's filters by position, then creation */
        get: operations["listDashboardFilters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/dashboard-filters/order": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Put the filters in a new order: every filter of the dashboard once */
        put: operations["orderDashboardFilters"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/dashboard-filter/{fid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One filter of the dashboard */
        get: operations["getDashboardFilter"];
        /** Replace the configuration and/or change onReport */
        put: operations["updateDashboardFilter"];
        post?: never;
        /** Delete a filter */
        delete: operations["deleteDashboardFilter"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/filter-reach": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Which charts each filter of a state would narrow once it has a value, and which not; no source is queried (members) */
        post: operations["dashboardFilterReach"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/filter": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Every chart of the dashboard (or those of chartIds) computed for a filter state, never saved; a chart that fails is an entry with its error */
        post: operations["filterDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/chart-templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's chart templates the caller may see (saved from dashboards they may read), newest first */
        get: operations["listChartTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/chart-templates/{template_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A chart template */
        get: operations["getChartTemplate"];
        put?: never;
        post?: never;
        /** Delete a chart template (who may write charts on the dashboard it was saved from) */
        delete: operations["deleteChartTemplate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Save a chart of the dashboard as a template of its team: its fields, dataset configs and visualization */
        post: operations["saveChartTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/template/{template}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Make charts on the dashboard from a chart or dashboard template (`custom` with body.template_id, or the template id in the path); answers the charts made */
        post: operations["createChartFromTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's dashboard templates the caller may see (saved from dashboards they may read), newest first */
        get: operations["listDashboardTemplates"];
        put?: never;
        /** Save every chart of a dashboard of the team as a template (who may write charts on that dashboard) */
        post: operations["createDashboardTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/template/generate/{project_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The model a template of this dashboard would hold; nothing is stored */
        get: operations["generateDashboardTemplate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/template/custom/{template_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A dashboard template */
        get: operations["getDashboardTemplate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/template/{template_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Rename or describe a dashboard template (what it holds stays as saved) */
        put: operations["updateDashboardTemplate"];
        post?: never;
        /** Delete a dashboard template */
        delete: operations["deleteDashboardTemplate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/share/policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dashboard's share policies */
        get: operations["listDashboardSharePolicies"];
        put?: never;
        /** Create a dashboard share policy (no body) */
        post: operations["createDashboardSharePolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/share/policy/{policy_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Update params, allow_params, expires_at or visibility */
        put: operations["updateDashboardSharePolicy"];
        post?: never;
        /** Delete a dashboard share policy */
        delete: operations["deleteDashboardSharePolicy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/share/policy/{policy_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invalidate every token issued for the policy so far */
        post: operations["revokeDashboardSharePolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/share/policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chart's share policies */
        get: operations["listChartSharePolicies"];
        put?: never;
        /** Create a chart share policy (no body) */
        post: operations["createChartSharePolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/share/policy/{policy_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Update params, allow_params, expires_at or visibility */
        put: operations["updateChartSharePolicy"];
        post?: never;
        /** Delete a chart share policy */
        delete: operations["deleteChartSharePolicy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/share/policy/{policy_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invalidate every token issued for the policy so far */
        post: operations["revokeChartSharePolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/share/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign a share token for the newest policy (or body.sharePolicyId); share_policy first updates its params and allow_params */
        post: operations["createDashboardShareToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/share/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign a share token for the newest policy (or body.sharePolicyId); share_policy first updates its params and allow_params */
        post: operations["createChartShareToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connection-providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every connection type and sub-type with its capabilities */
        get: operations["listConnectionProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The team's connections (project roles: those of their projects, without credentials) */
        get: operations["listConnections"];
        put?: never;
        /** Create a connection (teamOwner, teamAdmin) */
        post: operations["createConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/connections/{connection_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a connection; secrets read "********" */
        get: operations["getConnection"];
        /** Update a connection; "********" keeps a stored secret */
        put: operations["updateConnection"];
        post?: never;
        /** Delete a connection; removeDatasets=true also deletes the datasets that use it */
        delete: operations["deleteConnection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/connections/{connection_id}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload SSL files (multipart parts sslCa, sslCert, sslKey; 1 MiB each); a text part sslCa=null (an input left empty) is ignored */
        post: operations["uploadConnectionFiles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/connections/{connection_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Connect and check the credentials */
        get: operations["testConnection"];
        put?: never;
        /** Connect with a connection that is not saved (or an edited one, by its id) and check the credentials; nothing is stored */
        post: operations["testUnsavedConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/connections/{connection_id}/test/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Test a connection that is not saved with SSL files (multipart: a "connection" text part holding the connection as JSON, as for …/test, and file parts sslCa, sslCert, sslKey of 1 MiB each; sslCa=null text parts are ignored). Files are read in memory and nothing is stored */
        post: operations["testUnsavedConnectionWithFiles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/connections/{connection_id}/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Introspect tables (or collections) with their columns and types; saved on the connection */
        get: operations["getConnectionSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chart's data as a file: labels and one column per series; a table chart's rows */
        get: operations["exportChart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/team/{team_id}/datasets/{dataset_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dataset run as a file, bounded by the row and byte limits (a cut file says so in `x-plotline-truncated*` headers) */
        get: operations["exportDataset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{id}/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A picture of the dashboard as its report shows it: PNG or PDF, drawn on the server from its charts' data, with its title, data time and the filters used
         * @description Answers the picture itself, unless the request accepts only JSON (`Accept: application/json`, as Chartbrew's client sends it): then `{snapshot_path}`, a signed link to the same picture that expires in 7 days (no filter state: a link draws the saved data).
         */
        post: operations["snapshotDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project/{project_id}/chart/{id}/image": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A picture of the chart's card as the report shows it, PNG or SVG, drawn on the server from its data */
        get: operations["chartImage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every non-2xx answer */
        Error: {
            error: string;
            code: string;
            details?: {
                path: string;
                message: string;
            }[];
        };
        Deleted: {
            deleted: boolean;
        };
        Removed: {
            removed: boolean;
        };
        Readiness: {
            status: "ready" | "degraded";
            checks: {
                /** @enum {string} */
                store: "ok";
                redis: "ok" | "degraded" | "disabled";
            };
            /** @description What the operator should fix although the service is ready (e.g. /metrics reachable without PLOTLINE_METRICS_TOKEN); absent when there is nothing */
            warnings?: string[];
        };
        UpdateCheck: {
            /** @description The running version (package.json) */
            version: string;
            /** @description Always null: the server never calls out to learn of newer releases */
            latest: null;
            updateAvailable: boolean;
            /** @description Chartbrew's own answer when there is nothing to announce */
            upToDate: boolean;
        };
        SignUp: {
            name: string;
            email: string;
            password: string;
        };
        LogIn: {
            email: string;
            password: string;
        };
        User: {
            id: number;
            name: string;
            email: string;
            /** @description Session bearer token (30 days); shown only here. Absent with `?session=cookie`, where it goes into an HttpOnly cookie instead */
            token?: string;
        };
        /** @description The caller: a signed-in user, a user through a personal API key, or a team API key */
        Me: {
            /** @description The user's id; for a team API key, the key's id */
            id: number;
            name: string;
            /** @description Absent for a team API key, which is not its creator */
            email?: string;
            /** Format: date-time */
            createdAt: string;
            apiKey?: {
                id: number;
                name: string;
                /** @enum {unknown} */
                type: "team" | "personal";
                /** @description The team of a team key; null for a personal key */
                team_id: number | null;
                /** @description A team key's effective role, or a personal key's ceiling (null: none) */
                role: ("teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer") | null;
                projects: number[];
            };
        };
        LoggedOut: {
            loggedOut: boolean;
        };
        AnyUsers: {
            areThereAnyUsers: boolean;
        };
        CreateTeam: {
            name: string;
            showBranding?: boolean;
            allowReportRefresh?: boolean;
            allowReportExport?: boolean;
            allowExternalRecipients?: boolean;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Connections?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Projects?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly TeamRoles?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        UpdateTeam: {
            name?: string;
            showBranding?: boolean;
            allowReportRefresh?: boolean;
            allowReportExport?: boolean;
            allowExternalRecipients?: boolean;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Connections?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Projects?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly TeamRoles?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        TeamRole: {
            id: number;
            team_id: number;
            user_id: number;
            /** @enum {unknown} */
            role: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
            projects: number[];
            canExport: boolean;
        };
        Team: {
            id: number;
            name: string;
            showBranding?: boolean;
            allowReportRefresh?: boolean;
            allowReportExport?: boolean;
            /** @description Scheduled deliveries may e-mail addresses outside the team (default false) */
            allowExternalRecipients?: boolean;
            TeamRoles: components["schemas"]["TeamRole"][];
            Projects?: {
                id: number;
                name: string;
            }[];
            /** Format: date-time */
            createdAt?: string;
            /** Format: date-time */
            updatedAt?: string;
        };
        TeamMember: {
            /** @description The member's role row in this team (as `TeamRoles[0].id`); the user is `user_id` */
            id: number;
            team_id: number;
            user_id: number;
            name: string;
            email: string;
            /** @enum {unknown} */
            role: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
            projects: number[];
            canExport: boolean;
            /** @description The member's role in this team, once more in the shape Chartbrew's clients read (`member.TeamRoles`): one item */
            TeamRoles: components["schemas"]["TeamRole"][];
        };
        AddTeamMember: {
            email: string;
            /** @enum {unknown} */
            role: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
            projects?: number[];
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly PinnedDashboards?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly TeamRoles?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly canExport?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly name?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly user_id?: unknown;
        };
        UpdateTeamMember: {
            /** @enum {unknown} */
            role?: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
            projects?: number[];
            /** @description Whether the member may export chart data */
            canExport?: boolean;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly PinnedDashboards?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly TeamRoles?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly email?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly name?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly user_id?: unknown;
        };
        UpdateTeamRole: {
            user_id: number;
            /** @enum {unknown} */
            role?: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
            projects?: number[];
            /** @description Whether the member may export chart data */
            canExport?: boolean;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        MemberRemoved: {
            /** @enum {boolean} */
            removed: true;
        };
        /** @description What joining grants. Without `role`: projectViewer (as Chartbrew) */
        CreateInvitation: {
            /** @enum {unknown} */
            role?: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
            /** @description Projects a project role covers (ignored for teamOwner and teamAdmin) */
            projects?: number[];
            /** @description Whether the new member may export chart data */
            canExport?: boolean;
            /** @description Only this address may use the link; e-mailed to it when SMTP is configured */
            email?: string;
            /** @description Days the link stays usable (default 7) */
            expiresInDays?: number;
        };
        /** @description A team invitation; its link is shown only when it is created */
        Invitation: {
            id: number;
            team_id: number;
            email: string | null;
            /** @enum {unknown} */
            role: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
            projects: number[];
            canExport: boolean;
            /** @enum {unknown} */
            status: "pending" | "used" | "revoked" | "expired";
            created_by: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string;
            usedAt: string | null;
            used_by: number | null;
            revokedAt: string | null;
        };
        CreatedInvitation: {
            /** @description `{APP_URL}/invite?token=…`: the only time the token is shown */
            url: string;
            /** @description Whether the link was handed to the SMTP server (an invitation with an `email`, SMTP configured) */
            emailed: boolean;
            /** @description A team invitation; its link is shown only when it is created */
            invitation: {
                id: number;
                team_id: number;
                email: string | null;
                /** @enum {unknown} */
                role: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
                projects: number[];
                canExport: boolean;
                /** @enum {unknown} */
                status: "pending" | "used" | "revoked" | "expired";
                created_by: number | null;
                /** Format: date-time */
                createdAt: string;
                /** Format: date-time */
                expiresAt: string;
                usedAt: string | null;
                used_by: number | null;
                revokedAt: string | null;
            };
        };
        AcceptInvitation: {
            inviteToken: string;
        };
        AcceptInvitationByUser: {
            token: string;
        };
        InvitedSignUp: {
            name: string;
            email: string;
            password: string;
            inviteToken: string;
        };
        ApiKey: {
            id: number;
            name: string;
            /** @enum {unknown} */
            role: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
            projects: number[];
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
        };
        ApiKeyWithToken: {
            id: number;
            name: string;
            /** @enum {unknown} */
            role: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
            projects: number[];
            /** @description Shown only in this response */
            token: string;
            /** Format: date-time */
            createdAt: string;
        };
        CreateApiKey: {
            name: string;
            /** @enum {unknown} */
            role?: "teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer";
            projects?: number[];
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastUsedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly token?: unknown;
        };
        PersonalApiKey: {
            id: number;
            name: string;
            /** @description The highest role the key acts with in any team; null: the user's own role */
            ceiling: ("teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer") | null;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
        };
        PersonalApiKeyWithToken: {
            id: number;
            name: string;
            /** @description The highest role the key acts with in any team; null: the user's own role */
            ceiling: ("teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer") | null;
            /** Format: date-time */
            createdAt: string;
            /** @description Shown only in this response */
            token: string;
        };
        CreatePersonalApiKey: {
            name: string;
            ceiling?: ("teamOwner" | "teamAdmin" | "projectAdmin" | "projectEditor" | "projectViewer") | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastUsedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly token?: unknown;
        };
        CreateConnection: {
            name: string;
            /** @enum {unknown} */
            type: "postgres" | "mysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio";
            project_ids?: (number | string)[];
            oauth_id?: string | null;
            subType?: ("postgres" | "timescaledb" | "supabasedb" | "rdsPostgres" | "mysql" | "rdsMysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio") | null;
            active?: boolean;
            host?: string | null;
            dbName?: string | null;
            port?: string | null;
            username?: string | null;
            password?: string | null;
            srv?: boolean;
            options?: ({
                [key: string]: unknown;
            } | unknown[]) | null;
            connectionString?: string | null;
            authentication?: {
                type?: string | null;
                token?: string | null;
                user?: string | null;
                pass?: string | null;
            } | null;
            firebaseServiceAccount?: {
                [key: string]: unknown;
            } | null;
            ssl?: boolean;
            sslMode?: ("disable" | "prefer" | "require" | "verify-ca" | "verify-full") | null;
            schema?: ({
                [key: string]: unknown;
            } | unknown[]) | null;
            useSsh?: false | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly OAuth?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly allowPrivateHost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly hasSshPassphrase?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly hasSshPassword?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly hasSshPrivateKey?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshHost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshJumpHost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshJumpPort?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPassphrase?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPassword?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPort?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPrivateKey?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshUsername?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sslCa?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sslCert?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sslKey?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        UpdateConnection: {
            name?: string;
            /** @enum {unknown} */
            type?: "postgres" | "mysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio";
            project_ids?: (number | string)[];
            oauth_id?: string | null;
            subType?: ("postgres" | "timescaledb" | "supabasedb" | "rdsPostgres" | "mysql" | "rdsMysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio") | null;
            active?: boolean;
            host?: string | null;
            dbName?: string | null;
            port?: string | null;
            username?: string | null;
            password?: string | null;
            srv?: boolean;
            options?: ({
                [key: string]: unknown;
            } | unknown[]) | null;
            connectionString?: string | null;
            authentication?: {
                type?: string | null;
                token?: string | null;
                user?: string | null;
                pass?: string | null;
            } | null;
            firebaseServiceAccount?: {
                [key: string]: unknown;
            } | null;
            ssl?: boolean;
            sslMode?: ("disable" | "prefer" | "require" | "verify-ca" | "verify-full") | null;
            schema?: ({
                [key: string]: unknown;
            } | unknown[]) | null;
            useSsh?: false | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly OAuth?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly allowPrivateHost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly hasSshPassphrase?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly hasSshPassword?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly hasSshPrivateKey?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshHost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshJumpHost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshJumpPort?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPassphrase?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPassword?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPort?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPrivateKey?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshUsername?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sslCa?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sslCert?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sslKey?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        TestConnection: {
            id?: number | null;
            name?: string;
            /** @enum {unknown} */
            type?: "postgres" | "mysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio";
            project_ids?: (number | string)[];
            oauth_id?: string | null;
            subType?: ("postgres" | "timescaledb" | "supabasedb" | "rdsPostgres" | "mysql" | "rdsMysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio") | null;
            active?: boolean;
            host?: string | null;
            dbName?: string | null;
            port?: string | null;
            username?: string | null;
            password?: string | null;
            srv?: boolean;
            options?: ({
                [key: string]: unknown;
            } | unknown[]) | null;
            connectionString?: string | null;
            authentication?: {
                type?: string | null;
                token?: string | null;
                user?: string | null;
                pass?: string | null;
            } | null;
            firebaseServiceAccount?: {
                [key: string]: unknown;
            } | null;
            ssl?: boolean;
            sslMode?: ("disable" | "prefer" | "require" | "verify-ca" | "verify-full") | null;
            schema?: ({
                [key: string]: unknown;
            } | unknown[]) | null;
            useSsh?: false | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly OAuth?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly allowPrivateHost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly hasSshPassphrase?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly hasSshPassword?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly hasSshPrivateKey?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshHost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshJumpHost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshJumpPort?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPassphrase?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPassword?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPort?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshPrivateKey?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sshUsername?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sslCa?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sslCert?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sslKey?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        Connection: {
            id: number;
            team_id: number;
            project_ids: string[];
            oauth_id: string | null;
            name: string;
            /** @enum {unknown} */
            type: "postgres" | "mysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio";
            /** @enum {unknown} */
            subType: "postgres" | "timescaledb" | "supabasedb" | "rdsPostgres" | "mysql" | "rdsMysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio";
            active: boolean;
            host?: string | null;
            dbName?: string | null;
            port?: string | null;
            username?: string | null;
            password?: string | null;
            srv: boolean;
            options?: ({
                [key: string]: unknown;
            } | unknown[]) | null;
            connectionString?: string | null;
            authentication?: {
                type?: string | null;
                token?: string | null;
                user?: string | null;
                pass?: string | null;
            } | null;
            firebaseServiceAccount?: {
                [key: string]: unknown;
            } | null;
            ssl: boolean;
            sslMode: ("disable" | "prefer" | "require" | "verify-ca" | "verify-full") | null;
            sslCa?: string | null;
            sslCert?: string | null;
            sslKey?: string | null;
            schema: ({
                [key: string]: unknown;
            } | unknown[]) | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ConnectionProvider: {
            /** @enum {unknown} */
            id: "postgres" | "timescaledb" | "supabasedb" | "rdsPostgres" | "mysql" | "rdsMysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio";
            /** @enum {unknown} */
            type: "postgres" | "mysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio";
            /** @enum {unknown} */
            subType: "postgres" | "timescaledb" | "supabasedb" | "rdsPostgres" | "mysql" | "rdsMysql" | "mongodb" | "api" | "realtimedb" | "firestore" | "googleAnalytics" | "customerio";
            name: string;
            category: string;
            description: string;
            capabilities: {
                test: boolean;
                schema: boolean;
                query: boolean;
                pushdown: boolean;
                streaming: boolean;
            };
        };
        CreateDataset: {
            project_ids?: (number | string)[];
            name?: string | null;
            legend?: string | null;
            connection_id?: number | null;
            type?: string | null;
            query?: string | null;
            datasetColor?: string | null;
            draft?: boolean;
            xAxis?: string | null;
            xAxisOperation?: string | null;
            yAxis?: string | null;
            yAxisOperation?: ("none" | "count" | "count_unique" | "sum" | "avg" | "min" | "max") | null;
            dateField?: string | null;
            dateFormat?: string | null;
            conditions?: ({
                id?: string | number;
                field?: string;
                operator?: string;
                value?: unknown;
                displayValues?: boolean;
            } & {
                [key: string]: unknown;
            })[] | null;
            fieldsSchema?: {
                [key: string]: unknown;
            } | null;
            excludedFields?: string[] | null;
            configuration?: {
                [key: string]: unknown;
            } | null;
            joinSettings?: ({
                joins?: {
                    dr_id: number;
                    join_id: number;
                    dr_field: string;
                    join_field: string;
                    alias?: string | null;
                    type?: ("left" | "inner") | null;
                }[];
            } & {
                [key: string]: unknown;
            }) | null;
            main_dr_id?: number | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly ChartDatasetConfigs?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Charts?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Connection?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly DataRequests?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly VariableBindings?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly averageByTotal?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chart_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly columnsOrder?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly fill?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly fillColor?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly formula?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly goal?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly groupBy?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly groups?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly maxRecords?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly multiFill?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly order?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly patterns?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly pointRadius?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sort?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        UpdateDataset: {
            project_ids?: (number | string)[];
            name?: string | null;
            legend?: string | null;
            connection_id?: number | null;
            type?: string | null;
            query?: string | null;
            datasetColor?: string | null;
            draft?: boolean;
            xAxis?: string | null;
            xAxisOperation?: string | null;
            yAxis?: string | null;
            yAxisOperation?: ("none" | "count" | "count_unique" | "sum" | "avg" | "min" | "max") | null;
            dateField?: string | null;
            dateFormat?: string | null;
            conditions?: ({
                id?: string | number;
                field?: string;
                operator?: string;
                value?: unknown;
                displayValues?: boolean;
            } & {
                [key: string]: unknown;
            })[] | null;
            fieldsSchema?: {
                [key: string]: unknown;
            } | null;
            excludedFields?: string[] | null;
            configuration?: {
                [key: string]: unknown;
            } | null;
            joinSettings?: ({
                joins?: {
                    dr_id: number;
                    join_id: number;
                    dr_field: string;
                    join_field: string;
                    alias?: string | null;
                    type?: ("left" | "inner") | null;
                }[];
            } & {
                [key: string]: unknown;
            }) | null;
            main_dr_id?: number | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly ChartDatasetConfigs?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Charts?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Connection?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly DataRequests?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly VariableBindings?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly averageByTotal?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chart_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly columnsOrder?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly fill?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly fillColor?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly formula?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly goal?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly groupBy?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly groups?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly maxRecords?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly multiFill?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly order?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly patterns?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly pointRadius?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sort?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        QuickCreateDataset: {
            project_ids?: (number | string)[];
            name?: string | null;
            legend?: string | null;
            connection_id?: number | null;
            type?: string | null;
            query?: string | null;
            datasetColor?: string | null;
            draft?: boolean;
            xAxis?: string | null;
            xAxisOperation?: string | null;
            yAxis?: string | null;
            yAxisOperation?: ("none" | "count" | "count_unique" | "sum" | "avg" | "min" | "max") | null;
            dateField?: string | null;
            dateFormat?: string | null;
            conditions?: ({
                id?: string | number;
                field?: string;
                operator?: string;
                value?: unknown;
                displayValues?: boolean;
            } & {
                [key: string]: unknown;
            })[] | null;
            fieldsSchema?: {
                [key: string]: unknown;
            } | null;
            excludedFields?: string[] | null;
            configuration?: {
                [key: string]: unknown;
            } | null;
            joinSettings?: ({
                joins?: {
                    dr_id: number;
                    join_id: number;
                    dr_field: string;
                    join_field: string;
                    alias?: string | null;
                    type?: ("left" | "inner") | null;
                }[];
            } & {
                [key: string]: unknown;
            }) | null;
            main_dr_id?: number | null;
            dimension?: string | null;
            metric?: string | null;
            metricOperation?: ("none" | "count" | "count_unique" | "sum" | "avg" | "min" | "max") | null;
            dataRequests?: {
                connection_id?: number | null;
                method?: ("GET" | "POST" | "PUT" | "DELETE" | "PATCH") | null;
                route?: string | null;
                headers?: ({
                    key: string;
                    value: string | number | boolean | null;
                }[] | {
                    [key: string]: string | number | boolean | null;
                }) | null;
                body?: string | null;
                useGlobalHeaders?: boolean;
                query?: string | null;
                pagination?: boolean;
                items?: string | null;
                itemsLimit?: number | null;
                offset?: string | null;
                paginationField?: string | null;
                template?: ("" | ("custom" | "pages" | "cursor" | "url" | "stripe")) | null;
                conditions?: ({
                    id?: string | number;
                    field?: string;
                    operator?: string;
                    value?: unknown;
                    displayValues?: boolean;
                } & {
                    [key: string]: unknown;
                })[] | null;
                configuration?: {
                    [key: string]: unknown;
                } | null;
                variables?: {
                    [key: string]: unknown;
                } | null;
                transform?: {
                    [key: string]: unknown;
                } | null;
                variableBindings?: components["schemas"]["CreateVariableBinding"][];
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly Connection?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly Dataset?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly VariableBindings?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly createdAt?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly dataset_id?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly id?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly updatedAt?: unknown;
            }[];
            main_dr_index?: number;
            variableBindings?: components["schemas"]["CreateVariableBinding"][];
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly ChartDatasetConfigs?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Charts?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Connection?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly DataRequests?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly VariableBindings?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly averageByTotal?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chart_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly columnsOrder?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly fill?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly fillColor?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly formula?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly goal?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly groupBy?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly groups?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly maxRecords?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly multiFill?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly order?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly patterns?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly pointRadius?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly sort?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        DataRequestInput: {
            connection_id?: number | null;
            method?: ("GET" | "POST" | "PUT" | "DELETE" | "PATCH") | null;
            route?: string | null;
            headers?: ({
                key: string;
                value: string | number | boolean | null;
            }[] | {
                [key: string]: string | number | boolean | null;
            }) | null;
            body?: string | null;
            useGlobalHeaders?: boolean;
            query?: string | null;
            pagination?: boolean;
            items?: string | null;
            itemsLimit?: number | null;
            offset?: string | null;
            paginationField?: string | null;
            template?: ("" | ("custom" | "pages" | "cursor" | "url" | "stripe")) | null;
            conditions?: ({
                id?: string | number;
                field?: string;
                operator?: string;
                value?: unknown;
                displayValues?: boolean;
            } & {
                [key: string]: unknown;
            })[] | null;
            configuration?: {
                [key: string]: unknown;
            } | null;
            variables?: {
                [key: string]: unknown;
            } | null;
            transform?: {
                [key: string]: unknown;
            } | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Connection?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Dataset?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly VariableBindings?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly dataset_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        CreateVariableBinding: {
            name: string;
            /**
             * @description How values are parsed, checked and bound: a scalar, or a list of them (`string[]`, …: a JSON array, or comma-separated text)
             * @enum {unknown}
             */
            type?: "string" | "number" | "boolean" | "date" | "string[]" | "number[]" | "boolean[]" | "date[]";
            default_value?: (string | number | boolean | (string | number | boolean)[]) | null;
            required?: boolean;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly entity_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly entity_type?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        UpdateVariableBinding: {
            name?: string;
            /**
             * @description How values are parsed, checked and bound: a scalar, or a list of them (`string[]`, …: a JSON array, or comma-separated text)
             * @enum {unknown}
             */
            type?: "string" | "number" | "boolean" | "date" | "string[]" | "number[]" | "boolean[]" | "date[]";
            default_value?: (string | number | boolean | (string | number | boolean)[]) | null;
            required?: boolean;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly entity_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly entity_type?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        VariableBinding: {
            id: number;
            entity_type: string;
            entity_id: string;
            name: string;
            type: string;
            default_value: string | null;
            required: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        DataRequest: {
            id: number;
            dataset_id: number;
            connection_id: number | null;
            method: string | null;
            route: string | null;
            headers: {
                key: string;
                value: string;
            }[];
            body: string | null;
            useGlobalHeaders: boolean;
            query: string | null;
            pagination: boolean;
            items: string | null;
            itemsLimit: number | null;
            offset: string | null;
            paginationField: string | null;
            template: string | null;
            conditions: unknown[];
            configuration: {
                [key: string]: unknown;
            };
            variables: {
                [key: string]: unknown;
            };
            transform: {
                [key: string]: unknown;
            } | null;
            Connection: {
                id: number;
                name: string;
                type: string;
                subType: string | null;
                host?: string | null;
            } | null;
            VariableBindings: components["schemas"]["VariableBinding"][];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        Dataset: {
            id: number;
            team_id: number;
            project_ids: number[];
            chart_id: number | null;
            connection_id: number | null;
            main_dr_id: number | null;
            draft: boolean;
            name: string | null;
            type: string | null;
            query: string | null;
            datasetColor: string | null;
            xAxis: string | null;
            xAxisOperation: string | null;
            yAxis: string | null;
            yAxisOperation: string | null;
            dateField: string | null;
            dateFormat: string | null;
            legend: string | null;
            conditions: unknown[];
            fieldsSchema: {
                [key: string]: unknown;
            };
            excludedFields: string[];
            configuration: {
                [key: string]: unknown;
            };
            joinSettings: {
                joins: unknown[];
            } & {
                [key: string]: unknown;
            };
            DataRequests: components["schemas"]["DataRequest"][];
            VariableBindings: components["schemas"]["VariableBinding"][];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        RunInput: {
            /** @description Variable values for this run, `{name: value}` (a list variable takes a JSON array); `[]` is no variables */
            variables?: {
                [key: string]: unknown;
            } | unknown[];
            filters?: unknown[] | {
                [key: string]: unknown;
            };
            getCache?: boolean;
            noSource?: boolean;
            limit?: number;
            offset?: number;
        } | null;
        /** @description An unsaved version of a data request, run on its connection with the same checks as a saved one */
        DraftRunInput: {
            /** @description The SQL (or query text) to run instead of the saved one; it is not saved */
            query: string;
            /** @description Variable values for this run, `{name: value}` (a list variable takes a JSON array); `[]` is no variables */
            variables?: {
                [key: string]: unknown;
            } | unknown[];
            limit?: number;
            /** @description The draft's variables as the editor shows them, in place of the request's bindings of the same names (nothing saved); one without a default runs as NULL and is listed in `variablesWithoutValue` */
            variableBindings?: {
                name: string;
                /**
                 * @description How values are parsed, checked and bound: a scalar, or a list of them (`string[]`, …: a JSON array, or comma-separated text)
                 * @enum {unknown}
                 */
                type?: "string" | "number" | "boolean" | "date" | "string[]" | "number[]" | "boolean[]" | "date[]";
                default_value?: string | null;
            }[];
        };
        RunMeta: {
            columns: ({
                name: string;
                type: string;
            } & {
                [key: string]: unknown;
            })[];
            rowCount: number;
            /** @description True when a limit cut the result (the rows are the first ones only; the source had more) */
            truncated: boolean;
            /**
             * @description Which limit cut it, when truncated: the row limit, the byte limit (PLOTLINE_RESULT_MAX_MB), or a source's page cap
             * @enum {unknown}
             */
            truncatedBy?: "rows" | "bytes" | "pages";
            /** @description The row limit of the run, when truncated */
            rowLimit?: number;
            /** @description The page cap that stopped a paginating source, when `truncatedBy` is `pages` */
            pageLimit?: number;
            /** @description The byte limit that cut the result, when `truncatedBy` is `bytes` */
            byteLimit?: number;
            durationMs: number;
        };
        /** @description The dataset, its rows (joined and filtered), run metadata and cache status */
        DatasetRun: {
            options: {
                [key: string]: unknown;
            };
            data: unknown;
            meta: components["schemas"]["RunMeta"];
            cache: {
                status: string;
                createdAt: string;
            };
            /** @description Bound variables that ran without a value (bound as NULL, or as each source documents), sorted by name */
            variablesWithoutValue: string[];
        };
        DataRequestRun: {
            options: {
                [key: string]: unknown;
            };
            dataRequest: {
                responseData: {
                    data: unknown;
                    configuration: unknown;
                };
                meta: components["schemas"]["RunMeta"];
            };
            /** @description Bound variables that ran without a value (bound as NULL, or as each source documents), sorted by name */
            variablesWithoutValue: string[];
        };
        SavedQuery: {
            id: number;
            team_id: number;
            /** @description Who saved it; null once that user is gone */
            user_id: number | null;
            summary: string | null;
            query: string | null;
            /** @description The connection type it is written for (`postgres`, `mysql`, `mongodb`…) */
            type: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description Who saved it */
            User: {
                id: number;
                name: string;
            } | null;
        };
        CreateSavedQuery: {
            summary?: string | null;
            query?: string | null;
            type?: string | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly User?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly user_id?: unknown;
        };
        UpdateSavedQuery: {
            summary?: string | null;
            query?: string | null;
            type?: string | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly User?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly user_id?: unknown;
        };
        /**
         * @description The values a filter dropdown offers for one field of a dataset
         * @example {
         *       "field": "root[].country",
         *       "values": [
         *         "DE",
         *         "FR",
         *         "US"
         *       ],
         *       "truncated": false,
         *       "missing": false
         *     }
         */
        DatasetValues: {
            /** @description The field as asked */
            field: string;
            /** @description Distinct values, sorted: false before true, numbers ascending, then text by code points. Nulls, empty text, objects and arrays are left out */
            values: (string | number | boolean)[];
            /** @description More values exist than `limit` (the first ones are listed), or the run was cut by a row limit */
            truncated: boolean;
            /** @description The dataset's result has no such field; `values` is then empty */
            missing: boolean;
        };
        /** @description Chartbrew's v2 chart spec: one layer per dataset config (`bindingId`), its roles (`time` or `category`, `value`), transforms (`filter`, `sort`, `limit`, `window`) and settings. Written onto the dataset configs and the chart; what cannot be computed is a 400 naming its path */
        Visualization: {
            /** @enum {number} */
            version?: 2;
            /** @enum {unknown} */
            status?: "ready" | "draft" | "orphan";
            layers: ({
                /** @description Default: layer-<position> */
                id?: string;
                bindingId?: (string | number) | null;
                /** @description The chart type the layer is drawn as (default: the chart's) */
                mark?: string;
                name?: string | null;
                rowPath?: string | null;
                encoding?: {
                    [key: string]: ({
                        /** @description A field path of the dataset rows (`root[].created_at`) */
                        field: string;
                        /** @enum {unknown} */
                        type?: "nominal" | "ordinal" | "quantitative" | "temporal" | "boolean" | "record";
                        /**
                         * @description How the value role aggregates each group (the dataset config's `yAxisOperation`)
                         * @enum {unknown}
                         */
                        aggregate?: "none" | "count" | "count_unique" | "sum" | "avg" | "min" | "max";
                        /**
                         * @description Bucket of the time role (the chart's `timeInterval`)
                         * @enum {unknown}
                         */
                        timeUnit?: "second" | "minute" | "hour" | "day" | "week" | "month" | "year";
                        title?: string | null;
                        /** @enum {unknown} */
                        nullPolicy?: "exclude" | "preserve" | "label";
                        nullLabel?: string | null;
                        formula?: string | null;
                        format?: string | null;
                    } & {
                        [key: string]: unknown;
                    }) | ({
                        /** @description A field path of the dataset rows (`root[].created_at`) */
                        field: string;
                        /** @enum {unknown} */
                        type?: "nominal" | "ordinal" | "quantitative" | "temporal" | "boolean" | "record";
                        /**
                         * @description How the value role aggregates each group (the dataset config's `yAxisOperation`)
                         * @enum {unknown}
                         */
                        aggregate?: "none" | "count" | "count_unique" | "sum" | "avg" | "min" | "max";
                        /**
                         * @description Bucket of the time role (the chart's `timeInterval`)
                         * @enum {unknown}
                         */
                        timeUnit?: "second" | "minute" | "hour" | "day" | "week" | "month" | "year";
                        title?: string | null;
                        /** @enum {unknown} */
                        nullPolicy?: "exclude" | "preserve" | "label";
                        nullLabel?: string | null;
                        formula?: string | null;
                        format?: string | null;
                    } & {
                        [key: string]: unknown;
                    })[] | null | string;
                };
                transforms?: ({
                    /** @enum {unknown} */
                    type: "filter" | "sort" | "limit" | "window";
                    field?: string;
                    operator?: string;
                    value?: (string | number | boolean | null) | (string | number | boolean | null)[];
                    role?: string;
                    /** @enum {unknown} */
                    direction?: "asc" | "desc";
                    count?: number;
                    /** @enum {unknown} */
                    operation?: "cumulativeSum";
                } & {
                    [key: string]: unknown;
                })[];
                style?: {
                    color?: string | null;
                    fill?: boolean | null;
                    fillColor?: (string | string[]) | null;
                    label?: string | null;
                    multiFill?: boolean | null;
                    pointRadius?: number | null;
                } & {
                    [key: string]: unknown;
                };
                options?: {
                    columnsOrder?: string[] | null;
                    excludedFields?: string[] | null;
                    series?: {
                        limit?: number | null;
                        /** @description The series past the limit summed into one more series (count and sum only) */
                        includeOther?: boolean;
                        otherLabel?: string | null;
                        order?: unknown[] | null;
                        hidden?: unknown[] | null;
                    } & {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
                /** @enum {unknown} */
                stack?: "none" | "normal" | "percent";
                /** @enum {unknown} */
                orientation?: "vertical" | "horizontal";
                goal?: number | null;
                content?: string | null;
            } & {
                [key: string]: unknown;
            })[];
            settings?: {
                timeInterval?: ("second" | "minute" | "hour" | "day" | "week" | "month" | "year") | null;
                includeZeros?: boolean | null;
                dataLabels?: boolean | null;
                dashedLastPoint?: boolean | null;
                logarithmic?: boolean | null;
                maxValue?: number | null;
                minValue?: number | null;
                xLabelTicks?: ("default" | "half" | "third" | "fourth" | "showAll") | null;
                legend?: ({
                    visible?: boolean | null;
                } & {
                    [key: string]: unknown;
                }) | null;
                missingValues?: ({
                    policy?: ("zero" | "preserve") | null;
                } & {
                    [key: string]: unknown;
                }) | null;
                dateWindow?: ({
                    start?: (string) | null;
                    end?: (string) | null;
                    currentEndDate?: boolean | null;
                    fixedStartDate?: boolean | null;
                } & {
                    [key: string]: unknown;
                }) | null;
            } & {
                [key: string]: unknown;
            };
            metadata?: {
                [key: string]: unknown;
            };
        };
        /** @description Chartbrew's v2 chart spec of the chart, in step with its dataset configs (docs/chartbrew-web-app.md) */
        ChartVisualization: {
            /** @enum {number} */
            version: 2;
            /** @enum {unknown} */
            status: "ready" | "draft" | "orphan";
            layers: ({
                id: string;
                bindingId: string | null;
                mark: string;
                encoding: {
                    [key: string]: unknown;
                };
                transforms: {
                    [key: string]: unknown;
                }[];
                style: {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            })[];
            settings: {
                [key: string]: unknown;
            };
            metadata: {
                [key: string]: unknown;
            };
        };
        CreateChartDatasetConfig: {
            dataset_id: number;
            xAxis?: string | null;
            xAxisOperation?: string | null;
            yAxis?: string | null;
            yAxisOperation?: ("none" | "count" | "count_unique" | "sum" | "avg" | "min" | "max") | null;
            dateField?: string | null;
            dateFormat?: string | null;
            conditions?: {
                id?: string;
                field?: string;
                /** @enum {unknown} */
                operator?: "is" | "isNot" | "contains" | "notContains" | "greaterThan" | "greaterOrEqual" | "lessThan" | "lessOrEqual" | "isNull" | "isNotNull";
                value?: string | number | boolean | null;
                displayValues?: boolean;
                exposed?: boolean;
                items?: (string | number | boolean | null)[];
            }[] | null;
            formula?: string | null;
            datasetColor?: string | null;
            fillColor?: (string | string[]) | null;
            fill?: boolean;
            multiFill?: boolean;
            legend?: string | null;
            pointRadius?: number | null;
            excludedFields?: string[] | null;
            sort?: ("asc" | "desc") | null;
            columnsOrder?: string[] | null;
            order?: number | null;
            maxRecords?: number | null;
            goal?: number | null;
            configuration?: ({
                variables?: {
                    name: string;
                    value?: string | number | boolean | null;
                }[];
            } & {
                [key: string]: unknown;
            }) | null;
            breakdown?: string | null;
            breakdownLimit?: number | null;
            /** @description The series past the limit are summed into one more series (breakdownOtherLabel) instead of left out; for count and sum only (an average or a count of distinct values cannot be added up) */
            breakdownOther?: boolean;
            breakdownOtherLabel?: string | null;
            /** @description A client-side id of the config, never stored; the new chart's visualization layers may name it as their bindingId */
            id?: string | number | null;
            /** @description A client-side id of the config, never stored; the new chart's visualization layers may name it as their bindingId */
            bindingId?: string | number | null;
            /** @description A client-side id of the config, never stored; the new chart's visualization layers may name it as their bindingId */
            templateBindingId?: string | number | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Dataset?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chart_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        UpdateChartDatasetConfig: {
            dataset_id?: number;
            xAxis?: string | null;
            xAxisOperation?: string | null;
            yAxis?: string | null;
            yAxisOperation?: ("none" | "count" | "count_unique" | "sum" | "avg" | "min" | "max") | null;
            dateField?: string | null;
            dateFormat?: string | null;
            conditions?: {
                id?: string;
                field?: string;
                /** @enum {unknown} */
                operator?: "is" | "isNot" | "contains" | "notContains" | "greaterThan" | "greaterOrEqual" | "lessThan" | "lessOrEqual" | "isNull" | "isNotNull";
                value?: string | number | boolean | null;
                displayValues?: boolean;
                exposed?: boolean;
                items?: (string | number | boolean | null)[];
            }[] | null;
            formula?: string | null;
            datasetColor?: string | null;
            fillColor?: (string | string[]) | null;
            fill?: boolean;
            multiFill?: boolean;
            legend?: string | null;
            pointRadius?: number | null;
            excludedFields?: string[] | null;
            sort?: ("asc" | "desc") | null;
            columnsOrder?: string[] | null;
            order?: number | null;
            maxRecords?: number | null;
            goal?: number | null;
            configuration?: ({
                variables?: {
                    name: string;
                    value?: string | number | boolean | null;
                }[];
            } & {
                [key: string]: unknown;
            }) | null;
            breakdown?: string | null;
            breakdownLimit?: number | null;
            /** @description The series past the limit are summed into one more series (breakdownOtherLabel) instead of left out; for count and sum only (an average or a count of distinct values cannot be added up) */
            breakdownOther?: boolean;
            breakdownOtherLabel?: string | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Dataset?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chart_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        ChartDatasetConfig: {
            /** Format: uuid */
            id: string;
            chart_id: number;
            dataset_id: number;
            xAxis: string | null;
            xAxisOperation: string | null;
            yAxis: string | null;
            yAxisOperation: string | null;
            dateField: string | null;
            dateFormat: string | null;
            conditions: unknown[];
            formula: string | null;
            datasetColor: string | null;
            /** @description A colour or an array of colours (one per slice) */
            fillColor: unknown;
            fill: boolean;
            multiFill: boolean;
            legend: string | null;
            pointRadius: number | null;
            excludedFields: string[];
            sort: string | null;
            columnsOrder: string[];
            order: number | null;
            maxRecords: number | null;
            goal: number | null;
            /** @description Object; holds `variables: [{name, value}]` */
            configuration: unknown;
            breakdown: string | null;
            breakdownLimit: number | null;
            /** @description The series past the limit are summed into one more series (breakdownOtherLabel) instead of left out; for count and sum only (an average or a count of distinct values cannot be added up) */
            breakdownOther: boolean;
            breakdownOtherLabel: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        CreateChart: {
            name: string;
            /** @enum {unknown} */
            type: "line" | "bar" | "radar" | "polar" | "pie" | "doughnut" | "table" | "kpi" | "avg" | "gauge" | "matrix" | "markdown";
            subType?: string | null;
            public?: boolean;
            shareable?: boolean;
            startDate?: (string) | null;
            endDate?: (string) | null;
            dateVarsFormat?: string | null;
            includeZeros?: boolean;
            currentEndDate?: boolean;
            fixedStartDate?: boolean;
            /** @enum {unknown} */
            timeInterval?: "second" | "minute" | "hour" | "day" | "week" | "month" | "year";
            autoUpdate?: number | null;
            draft?: boolean;
            disabledExport?: boolean | null;
            dashboardOrder?: number | null;
            /** @description Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns */
            layout?: {
                [key: string]: unknown;
            } | null;
            /** @description Show the legend */
            displayLegend?: boolean;
            /** @description Write each value on its point or bar (line and bar charts) */
            dataLabels?: boolean;
            /** @description Stack the series of a bar chart */
            stacked?: boolean;
            /** @description Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages */
            stackPercent?: boolean;
            /**
             * @description A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts
             * @enum {unknown}
             */
            missingValues?: "zero" | "preserve";
            /** @description Lay the bars of a bar chart horizontally */
            horizontal?: boolean;
            /** @description Compare the last value with the one before it (`growth` in the chart data) */
            showGrowth?: boolean;
            /** @description A fall is the good direction: growth statuses swap positive and negative */
            invertGrowth?: boolean;
            /** @description Logarithmic value axis */
            isLogarithmic?: boolean;
            /** @description The text of a markdown chart */
            content?: string | null;
            /** @description The bands of a gauge: `[{min, max, label?, color?}]` */
            ranges?: unknown[] | null;
            /** @description Rows per page of a table chart */
            defaultRowsPerPage?: number | null;
            /** @description Top of the value axis (of a gauge, when it has no ranges) */
            maxValue?: number | null;
            /** @description Bottom of the value axis (of a gauge, when it has no ranges) */
            minValue?: number | null;
            /** @description Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`) */
            xLabelTicks?: ("default" | "half" | "third" | "fourth" | "showAll") | null;
            /** @description Radius of the points of a line or radar chart; a dataset config's own radius wins */
            pointRadius?: number | null;
            /** @description Draw the last segment of a line chart dashed (a period still in progress) */
            dashedLastPoint?: boolean;
            /**
             * @description `chart`, or `kpichart` (Chartbrew's KPI view of the chart)
             * @enum {unknown}
             */
            mode?: "chart" | "kpichart";
            /** @description Shown on the dashboard's report (its share page) */
            onReport?: boolean;
            visualization?: components["schemas"]["Visualization"] | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Alerts?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly ChartDatasetConfigs?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Chartshares?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Project?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly SharePolicies?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly cacheStatus?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chartData?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chartDataUpdated?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chartSize?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly dateFormat?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly isTimeseries?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastAutoUpdate?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastError?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly showBranding?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly snapshotToken?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly stale?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly variantHash?: unknown;
        };
        UpdateChart: {
            name?: string;
            /** @enum {unknown} */
            type?: "line" | "bar" | "radar" | "polar" | "pie" | "doughnut" | "table" | "kpi" | "avg" | "gauge" | "matrix" | "markdown";
            subType?: string | null;
            public?: boolean;
            shareable?: boolean;
            startDate?: (string) | null;
            endDate?: (string) | null;
            dateVarsFormat?: string | null;
            includeZeros?: boolean;
            currentEndDate?: boolean;
            fixedStartDate?: boolean;
            /** @enum {unknown} */
            timeInterval?: "second" | "minute" | "hour" | "day" | "week" | "month" | "year";
            autoUpdate?: number | null;
            draft?: boolean;
            disabledExport?: boolean | null;
            dashboardOrder?: number | null;
            /** @description Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns */
            layout?: {
                [key: string]: unknown;
            } | null;
            /** @description Show the legend */
            displayLegend?: boolean;
            /** @description Write each value on its point or bar (line and bar charts) */
            dataLabels?: boolean;
            /** @description Stack the series of a bar chart */
            stacked?: boolean;
            /** @description Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages */
            stackPercent?: boolean;
            /**
             * @description A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts
             * @enum {unknown}
             */
            missingValues?: "zero" | "preserve";
            /** @description Lay the bars of a bar chart horizontally */
            horizontal?: boolean;
            /** @description Compare the last value with the one before it (`growth` in the chart data) */
            showGrowth?: boolean;
            /** @description A fall is the good direction: growth statuses swap positive and negative */
            invertGrowth?: boolean;
            /** @description Logarithmic value axis */
            isLogarithmic?: boolean;
            /** @description The text of a markdown chart */
            content?: string | null;
            /** @description The bands of a gauge: `[{min, max, label?, color?}]` */
            ranges?: unknown[] | null;
            /** @description Rows per page of a table chart */
            defaultRowsPerPage?: number | null;
            /** @description Top of the value axis (of a gauge, when it has no ranges) */
            maxValue?: number | null;
            /** @description Bottom of the value axis (of a gauge, when it has no ranges) */
            minValue?: number | null;
            /** @description Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`) */
            xLabelTicks?: ("default" | "half" | "third" | "fourth" | "showAll") | null;
            /** @description Radius of the points of a line or radar chart; a dataset config's own radius wins */
            pointRadius?: number | null;
            /** @description Draw the last segment of a line chart dashed (a period still in progress) */
            dashedLastPoint?: boolean;
            /**
             * @description `chart`, or `kpichart` (Chartbrew's KPI view of the chart)
             * @enum {unknown}
             */
            mode?: "chart" | "kpichart";
            /** @description Shown on the dashboard's report (its share page) */
            onReport?: boolean;
            visualization?: components["schemas"]["Visualization"] | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Alerts?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly ChartDatasetConfigs?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Chartshares?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Project?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly SharePolicies?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly cacheStatus?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chartData?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chartDataUpdated?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chartSize?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly dateFormat?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly isTimeseries?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastAutoUpdate?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastError?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly showBranding?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly snapshotToken?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly stale?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly variantHash?: unknown;
        };
        QuickCreateChart: {
            name: string;
            /** @enum {unknown} */
            type: "line" | "bar" | "radar" | "polar" | "pie" | "doughnut" | "table" | "kpi" | "avg" | "gauge" | "matrix" | "markdown";
            subType?: string | null;
            public?: boolean;
            shareable?: boolean;
            startDate?: (string) | null;
            endDate?: (string) | null;
            dateVarsFormat?: string | null;
            includeZeros?: boolean;
            currentEndDate?: boolean;
            fixedStartDate?: boolean;
            /** @enum {unknown} */
            timeInterval?: "second" | "minute" | "hour" | "day" | "week" | "month" | "year";
            autoUpdate?: number | null;
            draft?: boolean;
            disabledExport?: boolean | null;
            dashboardOrder?: number | null;
            /** @description Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns */
            layout?: {
                [key: string]: unknown;
            } | null;
            /** @description Show the legend */
            displayLegend?: boolean;
            /** @description Write each value on its point or bar (line and bar charts) */
            dataLabels?: boolean;
            /** @description Stack the series of a bar chart */
            stacked?: boolean;
            /** @description Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages */
            stackPercent?: boolean;
            /**
             * @description A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts
             * @enum {unknown}
             */
            missingValues?: "zero" | "preserve";
            /** @description Lay the bars of a bar chart horizontally */
            horizontal?: boolean;
            /** @description Compare the last value with the one before it (`growth` in the chart data) */
            showGrowth?: boolean;
            /** @description A fall is the good direction: growth statuses swap positive and negative */
            invertGrowth?: boolean;
            /** @description Logarithmic value axis */
            isLogarithmic?: boolean;
            /** @description The text of a markdown chart */
            content?: string | null;
            /** @description The bands of a gauge: `[{min, max, label?, color?}]` */
            ranges?: unknown[] | null;
            /** @description Rows per page of a table chart */
            defaultRowsPerPage?: number | null;
            /** @description Top of the value axis (of a gauge, when it has no ranges) */
            maxValue?: number | null;
            /** @description Bottom of the value axis (of a gauge, when it has no ranges) */
            minValue?: number | null;
            /** @description Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`) */
            xLabelTicks?: ("default" | "half" | "third" | "fourth" | "showAll") | null;
            /** @description Radius of the points of a line or radar chart; a dataset config's own radius wins */
            pointRadius?: number | null;
            /** @description Draw the last segment of a line chart dashed (a period still in progress) */
            dashedLastPoint?: boolean;
            /**
             * @description `chart`, or `kpichart` (Chartbrew's KPI view of the chart)
             * @enum {unknown}
             */
            mode?: "chart" | "kpichart";
            /** @description Shown on the dashboard's report (its share page) */
            onReport?: boolean;
            visualization?: components["schemas"]["Visualization"] | null;
            chartDatasetConfigs?: components["schemas"]["CreateChartDatasetConfig"][];
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Alerts?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly ChartDatasetConfigs?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Chartshares?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Project?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly SharePolicies?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly cacheStatus?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chartData?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chartDataUpdated?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chartSize?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly dateFormat?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly isTimeseries?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastAutoUpdate?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastError?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly showBranding?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly snapshotToken?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly stale?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly variantHash?: unknown;
        };
        PreviewChart: {
            name?: string;
            /** @enum {unknown} */
            type: "line" | "bar" | "radar" | "polar" | "pie" | "doughnut" | "table" | "kpi" | "avg" | "gauge" | "matrix" | "markdown";
            subType?: string | null;
            public?: boolean;
            shareable?: boolean;
            startDate?: (string) | null;
            endDate?: (string) | null;
            dateVarsFormat?: string | null;
            includeZeros?: boolean;
            currentEndDate?: boolean;
            fixedStartDate?: boolean;
            /** @enum {unknown} */
            timeInterval?: "second" | "minute" | "hour" | "day" | "week" | "month" | "year";
            autoUpdate?: number | null;
            draft?: boolean;
            disabledExport?: boolean | null;
            dashboardOrder?: number | null;
            /** @description Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns */
            layout?: {
                [key: string]: unknown;
            } | null;
            /** @description Show the legend */
            displayLegend?: boolean;
            /** @description Write each value on its point or bar (line and bar charts) */
            dataLabels?: boolean;
            /** @description Stack the series of a bar chart */
            stacked?: boolean;
            /** @description Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages */
            stackPercent?: boolean;
            /**
             * @description A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts
             * @enum {unknown}
             */
            missingValues?: "zero" | "preserve";
            /** @description Lay the bars of a bar chart horizontally */
            horizontal?: boolean;
            /** @description Compare the last value with the one before it (`growth` in the chart data) */
            showGrowth?: boolean;
            /** @description A fall is the good direction: growth statuses swap positive and negative */
            invertGrowth?: boolean;
            /** @description Logarithmic value axis */
            isLogarithmic?: boolean;
            /** @description The text of a markdown chart */
            content?: string | null;
            /** @description The bands of a gauge: `[{min, max, label?, color?}]` */
            ranges?: unknown[] | null;
            /** @description Rows per page of a table chart */
            defaultRowsPerPage?: number | null;
            /** @description Top of the value axis (of a gauge, when it has no ranges) */
            maxValue?: number | null;
            /** @description Bottom of the value axis (of a gauge, when it has no ranges) */
            minValue?: number | null;
            /** @description Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`) */
            xLabelTicks?: ("default" | "half" | "third" | "fourth" | "showAll") | null;
            /** @description Radius of the points of a line or radar chart; a dataset config's own radius wins */
            pointRadius?: number | null;
            /** @description Draw the last segment of a line chart dashed (a period still in progress) */
            dashedLastPoint?: boolean;
            /**
             * @description `chart`, or `kpichart` (Chartbrew's KPI view of the chart)
             * @enum {unknown}
             */
            mode?: "chart" | "kpichart";
            /** @description Shown on the dashboard's report (its share page) */
            onReport?: boolean;
            chartDatasetConfigs: components["schemas"]["CreateChartDatasetConfig"][];
            variables?: {
                [key: string]: unknown;
            };
            filters?: unknown[] | {
                [key: string]: unknown;
            };
        };
        ChartPreview: {
            /** @description The chart payload, exactly as a run of the saved chart computes it (with `truncated`, `truncatedBy`, `rowLimit` and, for bytes or pages, `byteLimit` or `pageLimit` when a limit cut it) */
            chartData: unknown;
            /** @description A limit cut the data the chart was computed from */
            truncated: boolean;
            /**
             * @description Which limit, when truncated: the row limit, the byte limit (PLOTLINE_RESULT_MAX_MB), or a source's page cap
             * @enum {unknown}
             */
            truncatedBy?: "rows" | "bytes" | "pages";
            /** @description The row limit of the run, when truncated */
            rowLimit?: number;
            /** @description The page cap that stopped a paginating source, when `truncatedBy` is `pages` */
            pageLimit?: number;
            /** @description The byte limit that cut it, when `truncatedBy` is `bytes` */
            byteLimit?: number;
            /** @description How each dataset config was computed: grouped by the database, or by the streaming engine */
            paths: ("pushdown" | "stream")[];
        };
        Chart: {
            id: number;
            project_id: number;
            name: string | null;
            type: string | null;
            subType: string | null;
            public: boolean;
            shareable: boolean;
            /** @description Last computed chart payload (server-owned) */
            chartData: unknown;
            chartDataUpdated: string | null;
            lastError: {
                /** @description The error code of the failure */
                code: string;
                /** @description What failed, as the refresh history records it */
                message: string;
                /** Format: date-time */
                at: string;
            } | null;
            /** @description Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns */
            layout: unknown;
            /** @description Show the legend */
            displayLegend: boolean;
            /** @description Write each value on its point or bar (line and bar charts) */
            dataLabels: boolean;
            /** @description Stack the series of a bar chart */
            stacked: boolean;
            /** @description Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages */
            stackPercent: boolean;
            /**
             * @description A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts
             * @enum {unknown}
             */
            missingValues: "zero" | "preserve";
            /** @description Lay the bars of a bar chart horizontally */
            horizontal: boolean;
            /** @description Compare the last value with the one before it (`growth` in the chart data) */
            showGrowth: boolean;
            /** @description A fall is the good direction: growth statuses swap positive and negative */
            invertGrowth: boolean;
            /** @description Logarithmic value axis */
            isLogarithmic: boolean;
            /** @description The text of a markdown chart */
            content: string | null;
            /** @description The bands of a gauge: `[{min, max, label?, color?}]` */
            ranges: unknown;
            /** @description Rows per page of a table chart */
            defaultRowsPerPage: number | null;
            /** @description Top of the value axis (of a gauge, when it has no ranges) */
            maxValue: number | null;
            /** @description Bottom of the value axis (of a gauge, when it has no ranges) */
            minValue: number | null;
            /** @description Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`) */
            xLabelTicks: string | null;
            /** @description Radius of the points of a line or radar chart; a dataset config's own radius wins */
            pointRadius: number | null;
            /** @description Draw the last segment of a line chart dashed (a period still in progress) */
            dashedLastPoint: boolean;
            /** @description `chart`, or `kpichart` (Chartbrew's KPI view of the chart) */
            mode: string;
            /** @description Shown on the dashboard's report (its share page) */
            onReport: boolean;
            startDate: string | null;
            endDate: string | null;
            dateVarsFormat: string | null;
            includeZeros: boolean;
            currentEndDate: boolean;
            fixedStartDate: boolean;
            timeInterval: string;
            autoUpdate: number | null;
            lastAutoUpdate: string | null;
            draft: boolean;
            disabledExport: boolean | null;
            dashboardOrder: number | null;
            visualization: components["schemas"]["ChartVisualization"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            ChartDatasetConfigs: components["schemas"]["ChartDatasetConfig"][];
        };
        ChartRunAnswer: {
            id: number;
            project_id: number;
            name: string | null;
            type: string | null;
            subType: string | null;
            public: boolean;
            shareable: boolean;
            /** @description Last computed chart payload (server-owned) */
            chartData: unknown;
            chartDataUpdated: string | null;
            lastError: {
                /** @description The error code of the failure */
                code: string;
                /** @description What failed, as the refresh history records it */
                message: string;
                /** Format: date-time */
                at: string;
            } | null;
            /** @description Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns */
            layout: unknown;
            /** @description Show the legend */
            displayLegend: boolean;
            /** @description Write each value on its point or bar (line and bar charts) */
            dataLabels: boolean;
            /** @description Stack the series of a bar chart */
            stacked: boolean;
            /** @description Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages */
            stackPercent: boolean;
            /**
             * @description A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts
             * @enum {unknown}
             */
            missingValues: "zero" | "preserve";
            /** @description Lay the bars of a bar chart horizontally */
            horizontal: boolean;
            /** @description Compare the last value with the one before it (`growth` in the chart data) */
            showGrowth: boolean;
            /** @description A fall is the good direction: growth statuses swap positive and negative */
            invertGrowth: boolean;
            /** @description Logarithmic value axis */
            isLogarithmic: boolean;
            /** @description The text of a markdown chart */
            content: string | null;
            /** @description The bands of a gauge: `[{min, max, label?, color?}]` */
            ranges: unknown;
            /** @description Rows per page of a table chart */
            defaultRowsPerPage: number | null;
            /** @description Top of the value axis (of a gauge, when it has no ranges) */
            maxValue: number | null;
            /** @description Bottom of the value axis (of a gauge, when it has no ranges) */
            minValue: number | null;
            /** @description Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`) */
            xLabelTicks: string | null;
            /** @description Radius of the points of a line or radar chart; a dataset config's own radius wins */
            pointRadius: number | null;
            /** @description Draw the last segment of a line chart dashed (a period still in progress) */
            dashedLastPoint: boolean;
            /** @description `chart`, or `kpichart` (Chartbrew's KPI view of the chart) */
            mode: string;
            /** @description Shown on the dashboard's report (its share page) */
            onReport: boolean;
            startDate: string | null;
            endDate: string | null;
            dateVarsFormat: string | null;
            includeZeros: boolean;
            currentEndDate: boolean;
            fixedStartDate: boolean;
            timeInterval: string;
            autoUpdate: number | null;
            lastAutoUpdate: string | null;
            draft: boolean;
            disabledExport: boolean | null;
            dashboardOrder: number | null;
            visualization: components["schemas"]["ChartVisualization"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            ChartDatasetConfigs: components["schemas"]["ChartDatasetConfig"][];
            /** @description Bound variables of the chart's datasets that this run left without a value (bound as NULL), sorted; empty when nothing ran (`noSource`) */
            variablesWithoutValue: string[];
        };
        DateFilterConfiguration: {
            /** @description The client's own id for this configuration (Chartbrew sends one); kept as given, used for nothing else */
            id?: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "date";
            /**
             * @description Resolved on the server in the dashboard time zone; custom (or none) uses startDate and/or endDate
             * @enum {unknown}
             */
            preset?: "today" | "yesterday" | "last_7_days" | "last_30_days" | "last_90_days" | "this_week" | "last_week" | "this_month" | "last_month" | "this_quarter" | "last_quarter" | "this_year" | "last_year" | "custom";
            startDate?: string | null;
            endDate?: string | null;
            /** @description Chart ids of this dashboard the filter applies to; absent: every chart */
            charts?: number[];
            /** @description What the filter is called on the dashboard */
            label?: string;
        };
        FieldFilterConfiguration: {
            /** @description The client's own id for this configuration (Chartbrew sends one); kept as given, used for nothing else */
            id?: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "field";
            /** @description A field path of the rows, e.g. `country` or `root[].country` */
            field: string;
            /** @enum {unknown} */
            operator: "is" | "isNot" | "contains" | "notContains" | "greaterThan" | "greaterOrEqual" | "lessThan" | "lessOrEqual" | "isNull" | "isNotNull";
            /** @description The value compared with; the viewer changes it */
            value?: unknown;
            /** @description Chart ids of this dashboard the filter applies to; absent: every chart */
            charts?: number[];
            /** @description What the filter is called on the dashboard */
            label?: string;
            /** @description Where the dropdown's values come from: a dataset of the team and one of its fields */
            valuesFrom?: {
                datasetId: number;
                /** @description A field path of the rows, e.g. `country` or `root[].country` */
                field: string;
            };
        };
        VariableFilterConfiguration: {
            /** @description The client's own id for this configuration (Chartbrew sends one); kept as given, used for nothing else */
            id?: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "variable";
            /** @description A variable of the datasets, as written between {{ }} */
            variable: string;
            /** @description The value given to the variable */
            value?: unknown;
            /** @enum {unknown} */
            dataType: "string" | "number" | "date" | "boolean" | "string[]" | "number[]" | "date[]" | "boolean[]";
            /** @description What the filter is called on the dashboard */
            label?: string;
            /** @description Whether viewers of a shared report may change the value (true when left out) */
            allowValueChange?: boolean;
            /** @description Where the dropdown's values come from: a dataset of the team and one of its fields */
            valuesFrom?: {
                datasetId: number;
                /** @description A field path of the rows, e.g. `country` or `root[].country` */
                field: string;
            };
        };
        /** @description A date range (preset or dates), a condition on a field, or a value for a variable */
        DashboardFilterConfiguration: components["schemas"]["DateFilterConfiguration"] | components["schemas"]["FieldFilterConfiguration"] | components["schemas"]["VariableFilterConfiguration"];
        DashboardFilter: {
            /**
             * Format: uuid
             * @description A UUID
             */
            id: string;
            project_id: number;
            configuration: components["schemas"]["DashboardFilterConfiguration"];
            /** @description Shown on shared reports, where viewers may change its value */
            onReport: boolean;
            /** @description Order on the dashboard */
            position: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        CreateDashboardFilter: {
            /**
             * Format: uuid
             * @description A UUID
             */
            id?: string;
            configuration: components["schemas"]["DashboardFilterConfiguration"];
            /** @description Shown on shared reports (false when left out) */
            onReport?: boolean;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly position?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        UpdateDashboardFilter: {
            configuration?: components["schemas"]["DashboardFilterConfiguration"];
            onReport?: boolean;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly position?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        OrderDashboardFilters: {
            /** @description Every filter of the dashboard once, in the new order */
            filterIds: string[];
        };
        PublicFieldFilterConfiguration: {
            /** @description The client's own id for this configuration (Chartbrew sends one); kept as given, used for nothing else */
            id?: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "field";
            /** @description A field path of the rows, e.g. `country` or `root[].country` */
            field: string;
            /** @enum {unknown} */
            operator: "is" | "isNot" | "contains" | "notContains" | "greaterThan" | "greaterOrEqual" | "lessThan" | "lessOrEqual" | "isNull" | "isNotNull";
            /** @description The value compared with; the viewer changes it */
            value?: unknown;
            /** @description Chart ids of this dashboard the filter applies to; absent: every chart */
            charts?: number[];
            /** @description What the filter is called on the dashboard */
            label?: string;
            /** @description The dropdown offers distinct values of this field */
            valuesFrom?: {
                /** @description A field path of the rows, e.g. `country` or `root[].country` */
                field: string;
            };
        };
        PublicVariableFilterConfiguration: {
            /** @description The client's own id for this configuration (Chartbrew sends one); kept as given, used for nothing else */
            id?: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "variable";
            /** @description A variable of the datasets, as written between {{ }} */
            variable: string;
            /** @description The value given to the variable */
            value?: unknown;
            /** @enum {unknown} */
            dataType: "string" | "number" | "date" | "boolean" | "string[]" | "number[]" | "date[]" | "boolean[]";
            /** @description What the filter is called on the dashboard */
            label?: string;
            /** @description Whether viewers of a shared report may change the value (true when left out) */
            allowValueChange?: boolean;
            /** @description The dropdown offers distinct values of this field */
            valuesFrom?: {
                /** @description A field path of the rows, e.g. `country` or `root[].country` */
                field: string;
            };
        };
        /** @description A filter as a shared report shows it: no dataset ids */
        PublicDashboardFilterConfiguration: components["schemas"]["DateFilterConfiguration"] | components["schemas"]["PublicFieldFilterConfiguration"] | components["schemas"]["PublicVariableFilterConfiguration"];
        PublicDashboardFilter: {
            /**
             * Format: uuid
             * @description A UUID
             */
            id: string;
            configuration: components["schemas"]["PublicDashboardFilterConfiguration"];
            position: number;
            /** @description A date filter's range as the server applies it now, in the dashboard time zone (its preset resolved) */
            resolved?: {
                startDate: string | null;
                endDate: string | null;
            };
        };
        FilterChartRun: {
            /** @description Field filters `{type?: "field", field, operator?, value, id?, charts?}`, date filters `{type: "date", startDate?, endDate?, preset?, id?, charts?}` and variable filters `{type: "variable", variable, value, id?}`; client-only types (pagination, sort, …) are ignored. On shared reports, only states of the report's filters (by id), and only their values */
            filters: {
                [key: string]: unknown;
            }[];
            /** @description Variable values for this run, `{name: value}` (a list variable takes a JSON array); `[]` is no variables */
            variables?: {
                [key: string]: unknown;
            } | unknown[];
            /** @description The share token, when it is not in the query string */
            token?: string;
            /** @description The dashboard password, when it is not in the "pass" header */
            password?: string;
        };
        FilterDashboardRun: {
            /** @description Field filters `{type?: "field", field, operator?, value, id?, charts?}`, date filters `{type: "date", startDate?, endDate?, preset?, id?, charts?}` and variable filters `{type: "variable", variable, value, id?}`; client-only types (pagination, sort, …) are ignored. On shared reports, only states of the report's filters (by id), and only their values */
            filters: {
                [key: string]: unknown;
            }[];
            /** @description Variable values for this run, `{name: value}` (a list variable takes a JSON array); `[]` is no variables */
            variables?: {
                [key: string]: unknown;
            } | unknown[];
            /** @description Only these charts of the dashboard; absent: every chart */
            chartIds?: number[];
        };
        SharedFilterDashboardRun: {
            /** @description Field filters `{type?: "field", field, operator?, value, id?, charts?}`, date filters `{type: "date", startDate?, endDate?, preset?, id?, charts?}` and variable filters `{type: "variable", variable, value, id?}`; client-only types (pagination, sort, …) are ignored. On shared reports, only states of the report's filters (by id), and only their values */
            filters: {
                [key: string]: unknown;
            }[];
            /** @description Variable values for this run, `{name: value}` (a list variable takes a JSON array); `[]` is no variables */
            variables?: {
                [key: string]: unknown;
            } | unknown[];
            /** @description Only these charts of the dashboard; absent: every chart */
            chartIds?: number[];
            /** @description The share token, when it is not in the query string */
            token?: string;
            /** @description The dashboard password, when it is not in the "pass" header */
            password?: string;
        };
        FilteredChart: {
            id: number;
            project_id: number;
            name: string | null;
            type: string | null;
            subType: string | null;
            public: boolean;
            shareable: boolean;
            /** @description Last computed chart payload (server-owned) */
            chartData: unknown;
            chartDataUpdated: string | null;
            lastError: {
                /** @description The error code of the failure */
                code: string;
                /** @description What failed, as the refresh history records it */
                message: string;
                /** Format: date-time */
                at: string;
            } | null;
            /** @description Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns */
            layout: unknown;
            /** @description Show the legend */
            displayLegend: boolean;
            /** @description Write each value on its point or bar (line and bar charts) */
            dataLabels: boolean;
            /** @description Stack the series of a bar chart */
            stacked: boolean;
            /** @description Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages */
            stackPercent: boolean;
            /**
             * @description A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts
             * @enum {unknown}
             */
            missingValues: "zero" | "preserve";
            /** @description Lay the bars of a bar chart horizontally */
            horizontal: boolean;
            /** @description Compare the last value with the one before it (`growth` in the chart data) */
            showGrowth: boolean;
            /** @description A fall is the good direction: growth statuses swap positive and negative */
            invertGrowth: boolean;
            /** @description Logarithmic value axis */
            isLogarithmic: boolean;
            /** @description The text of a markdown chart */
            content: string | null;
            /** @description The bands of a gauge: `[{min, max, label?, color?}]` */
            ranges: unknown;
            /** @description Rows per page of a table chart */
            defaultRowsPerPage: number | null;
            /** @description Top of the value axis (of a gauge, when it has no ranges) */
            maxValue: number | null;
            /** @description Bottom of the value axis (of a gauge, when it has no ranges) */
            minValue: number | null;
            /** @description Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`) */
            xLabelTicks: string | null;
            /** @description Radius of the points of a line or radar chart; a dataset config's own radius wins */
            pointRadius: number | null;
            /** @description Draw the last segment of a line chart dashed (a period still in progress) */
            dashedLastPoint: boolean;
            /** @description `chart`, or `kpichart` (Chartbrew's KPI view of the chart) */
            mode: string;
            /** @description Shown on the dashboard's report (its share page) */
            onReport: boolean;
            startDate: string | null;
            endDate: string | null;
            dateVarsFormat: string | null;
            includeZeros: boolean;
            currentEndDate: boolean;
            fixedStartDate: boolean;
            timeInterval: string;
            autoUpdate: number | null;
            lastAutoUpdate: string | null;
            draft: boolean;
            disabledExport: boolean | null;
            dashboardOrder: number | null;
            visualization: components["schemas"]["ChartVisualization"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            ChartDatasetConfigs: components["schemas"]["ChartDatasetConfig"][];
            /** @description Variables of the datasets that had no value in this run */
            variablesWithoutValue: string[];
            /** @description Ids (as sent) of the state's filters that narrow this chart: a field filter reaches a chart computed from a dataset, a date filter one with a date field, each unless its `charts` leave it out; a variable filter one whose dataset's requests name the variable. A filter without a value narrows nothing; one sent without an id is not listed */
            filteredBy: string[];
            /**
             * @description Whether the answer came from the result cache
             * @enum {unknown}
             */
            cacheStatus?: "hit" | "miss" | "stale" | "bypass";
        };
        /** @description A chart that could not be computed; the other charts still answer */
        ChartRunFailure: {
            id: number;
            error: {
                code: string;
                message: string;
            };
        };
        FilteredCharts: {
            charts: (components["schemas"]["FilteredChart"] | components["schemas"]["ChartRunFailure"])[];
        };
        FilterReachRequest: {
            /** @description Field filters `{type?: "field", field, operator?, value, id?, charts?}`, date filters `{type: "date", startDate?, endDate?, preset?, id?, charts?}` and variable filters `{type: "variable", variable, value, id?}`; client-only types (pagination, sort, …) are ignored. On shared reports, only states of the report's filters (by id), and only their values */
            filters: {
                [key: string]: unknown;
            }[];
            /** @description Variable values for this run, `{name: value}` (a list variable takes a JSON array); `[]` is no variables */
            variables?: {
                [key: string]: unknown;
            } | unknown[];
        };
        FilterReach: {
            /** @description Every chart of the dashboard but markdown ones, in dashboard order */
            charts: {
                id: number;
                /** @description Ids (as sent) of the filters that would narrow this chart once they have a value, by the rule of `filteredBy` */
                reachedBy: string[];
                /** @description Ids (as sent) of the other filters: set, they would leave this chart as it is */
                notReachedBy: string[];
            }[];
        };
        ChartTemplate: {
            id: number;
            team_id: number;
            project_id: number | null;
            name: string;
            description: string | null;
            /**
             * @description Chartbrew's template source: every template of a team is one of its own charts
             * @enum {string}
             */
            source: "custom";
            /** @description The template id as text (Chartbrew names templates by source and slug) */
            slug: string;
            /** @description The fields of the chart it makes (name, type, interval, display options…) */
            chart: {
                [key: string]: unknown;
            };
            /** @description Its dataset configs, each with dataset_id and the client id its layer names */
            chartDatasetConfigs: {
                [key: string]: unknown;
            }[];
            visualization: components["schemas"]["ChartVisualization"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        SaveChartTemplate: {
            chart_id: number;
            /** @description Default: the chart's name */
            name?: string;
            description?: string | null;
        };
        UseChartTemplate: {
            template_id?: number;
            /** @description A dashboard template's charts to make, by their `tid` (default: all of them); not for a chart template */
            charts?: number[];
            /** @description Chartbrew's choice of connections to copy or reuse: ignored, a template draws the team's own datasets and makes no connection */
            connections?: unknown;
        } | null;
        DashboardTemplateChart: {
            /** @description The chart's number in the template (0, 1, …): what `charts` picks when making charts from it */
            tid: number;
            name: string;
            type: string;
            /** @description The fields of the chart it makes (name, type, interval, display options…) */
            chart: {
                [key: string]: unknown;
            };
            /** @description Its place on the dashboard it was saved from: `{"lg": [x, y, w, h]}` */
            layout: unknown;
            /** @description Its dataset configs, each with dataset_id and the client id its layer names */
            ChartDatasetConfigs: {
                [key: string]: unknown;
            }[];
            visualization: components["schemas"]["ChartVisualization"];
        };
        DashboardTemplateModel: {
            Charts: components["schemas"]["DashboardTemplateChart"][];
            /** @description The team's datasets the charts draw, once each */
            Datasets: {
                id: number;
            }[];
            /** @description Always empty: a template draws the team's own datasets, whose connections stay as they are (Chartbrew copied connections into its templates) */
            Connections: unknown[];
        };
        DashboardTemplate: {
            id: number;
            team_id: number;
            project_id: number | null;
            name: string;
            description: string | null;
            model: components["schemas"]["DashboardTemplateModel"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @description Save every chart of the dashboard `project_id` as a template of the team */
        CreateDashboardTemplate: {
            project_id: number;
            name: string;
            description?: string | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly model?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        /** @description Rename or describe a template; what it holds is read-only */
        UpdateDashboardTemplate: {
            name?: string;
            description?: string | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly model?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        CreateProject: {
            name: string;
            team_id: number;
            dashboardTitle?: string | null;
            description?: string | null;
            backgroundColor?: string | null;
            titleColor?: string | null;
            headerCode?: string | null;
            footerCode?: string | null;
            logo?: string | null;
            logoLink?: string | null;
            public?: boolean;
            passwordProtected?: boolean;
            password?: string | null;
            timezone?: string | null;
            updateSchedule?: {
                timezone?: string;
                /** @enum {unknown} */
                frequency?: "every_x_minutes" | "every_x_hours" | "every_x_days" | "daily" | "weekly";
                frequencyNumber?: number | string;
                time?: {
                    hour?: number;
                    minute?: number;
                    second?: number;
                    millisecond?: number;
                };
                dayOfWeek?: number | ("monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday");
                daysOfWeek?: (number | ("monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday"))[];
            } | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Charts?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly DashboardFilters?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly ProjectRoles?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly SharePolicies?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Team?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Variables?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly brewName?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly currentSnapshot?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly ghost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastSnapshotSentAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastUpdatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly nextUpdateAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly snapshotSchedule?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        UpdateProject: {
            name?: string;
            dashboardTitle?: string | null;
            description?: string | null;
            backgroundColor?: string | null;
            titleColor?: string | null;
            headerCode?: string | null;
            footerCode?: string | null;
            logo?: string | null;
            logoLink?: string | null;
            public?: boolean;
            passwordProtected?: boolean;
            password?: string | null;
            timezone?: string | null;
            updateSchedule?: {
                timezone?: string;
                /** @enum {unknown} */
                frequency?: "every_x_minutes" | "every_x_hours" | "every_x_days" | "daily" | "weekly";
                frequencyNumber?: number | string;
                time?: {
                    hour?: number;
                    minute?: number;
                    second?: number;
                    millisecond?: number;
                };
                dayOfWeek?: number | ("monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday");
                daysOfWeek?: (number | ("monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday"))[];
            } | null;
            /** @description Chartbrew's e-mail/Slack snapshot schedule (`frequency` daily|weekly|every_x_days|every_x_hours|every_x_minutes, `frequencyNumber` for every_x_* (minutes: at least 15), `time`, `dayOfWeek`, `daysOfWeek`, `timezone`, `mediums.email.enabled`, `customEmails`, `integrations[].integration_id`): written onto the dashboard's subscription of origin `snapshotSchedule`; null or "" deletes it */
            snapshotSchedule?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Charts?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly DashboardFilters?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly ProjectRoles?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly SharePolicies?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Team?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly Variables?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly brewName?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly currentSnapshot?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly ghost?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastSnapshotSentAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastUpdatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly nextUpdateAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        Project: {
            id: number;
            team_id: number;
            name: string;
            /** @description Unique slug of the dashboard, used in report URLs */
            brewName: string;
            dashboardTitle: string | null;
            description: string | null;
            backgroundColor: string | null;
            titleColor: string | null;
            headerCode: string | null;
            footerCode: string | null;
            logo: string | null;
            logoLink: string | null;
            public: boolean;
            passwordProtected: boolean;
            timezone: string | null;
            updateSchedule: {
                timezone?: string;
                frequency?: string;
                frequencyNumber?: string;
                time?: {
                    hour?: number;
                    minute?: number;
                    second?: number;
                    millisecond?: number;
                };
                dayOfWeek?: number | ("monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday");
                daysOfWeek?: (number | ("monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday"))[];
            } | null;
            lastUpdatedAt: string | null;
            /** @description When the update schedule refreshes the dashboard next (now when it is due); null without a schedule */
            nextUpdateAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            snapshotSchedule: {
                /** @description daily, weekly, every_x_days, every_x_hours or every_x_minutes (the subscription routes have more) */
                frequency: string;
                /** @description every_x_*: how many days, hours or minutes after the last delivery */
                frequencyNumber?: number;
                /** @description Absent for every_x_* (they count from the last delivery) */
                time?: {
                    hour: number;
                    minute: number;
                };
                timezone: string;
                /** @description A weekly schedule's day, `monday` … `sunday` */
                dayOfWeek?: string;
                /** @description A daily schedule's days, 1-7 (Monday = 1), when not every day */
                daysOfWeek?: number[];
                theme: string;
                mediums: {
                    email: {
                        enabled: boolean;
                    };
                };
                customEmails: string[];
                integrations: {
                    integration_id: number;
                    enabled: boolean;
                }[];
                active: boolean;
                /** @description The subscription it is (`GET /project/{id}/subscriptions`) */
                subscription_id: number;
            } | null;
            Charts: components["schemas"]["Chart"][];
            /** @description Ordered by position, then creation */
            DashboardFilters: components["schemas"]["DashboardFilter"][];
            SharePolicies?: components["schemas"]["SharePolicy"][];
        };
        ProjectSummary: {
            id: number;
            team_id: number;
            name: string;
            /** @description Unique slug of the dashboard, used in report URLs */
            brewName: string;
            dashboardTitle: string | null;
            description: string | null;
            backgroundColor: string | null;
            titleColor: string | null;
            headerCode: string | null;
            footerCode: string | null;
            logo: string | null;
            logoLink: string | null;
            public: boolean;
            passwordProtected: boolean;
            timezone: string | null;
            updateSchedule: {
                timezone?: string;
                frequency?: string;
                frequencyNumber?: string;
                time?: {
                    hour?: number;
                    minute?: number;
                    second?: number;
                    millisecond?: number;
                };
                dayOfWeek?: number | ("monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday");
                daysOfWeek?: (number | ("monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday"))[];
            } | null;
            lastUpdatedAt: string | null;
            /** @description When the update schedule refreshes the dashboard next (now when it is due); null without a schedule */
            nextUpdateAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            Charts: {
                id: number;
                name: string | null;
                layout: unknown;
            }[];
        };
        SharePolicyParam: {
            key: string;
            value: string;
        };
        SharePolicy: {
            id: number;
            /** @enum {unknown} */
            entity_type: "Project" | "Chart";
            entity_id: number;
            /** @description Random URL-safe identifier (144 bits); the key of chart share URLs */
            share_string: string;
            /** @enum {unknown} */
            visibility: "private" | "disabled";
            params: components["schemas"]["SharePolicyParam"][];
            allow_params: boolean;
            expires_at: string | null;
            /** @description 2 for a new policy, one more after each revoke; tokens issued before a revoke stop working. Chartbrew's web app signs a link by itself for a policy at 2 or more */
            token_version: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        UpdateSharePolicy: {
            params?: components["schemas"]["SharePolicyParam"][];
            allow_params?: boolean;
            /** @description When every link of the policy stops working: an ISO 8601 date-time (2030-12-31T23:59:59Z), or a local one without zone, as a datetime-local input gives it (2030-12-31T23:59), read in the dashboard's time zone (UTC when it has none); null or "": never */
            expires_at?: string | null;
            /** @enum {unknown} */
            visibility?: "private" | "disabled";
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly entity_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly entity_type?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly password?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly share_string?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly token_version?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
        };
        CreateShareToken: {
            share_policy?: {
                params?: components["schemas"]["SharePolicyParam"][];
                allow_params?: boolean;
            };
            /** @description ISO 8601 date-time when the token stops working; absent, "" or null (what Chartbrew's client sends for none): 99999 days */
            exp?: string | null;
            sharePolicyId?: number;
        } | null;
        ShareToken: {
            /** @description Signed JWT (HS256) naming the policy; re-checked against it on every use */
            token: string;
            /** @description Shareable link: {app_url}/report/<brewName>?token=… or {app_url}/chart/<share_string>/embedded?token=… */
            url: string;
            sharePolicy: components["schemas"]["SharePolicy"];
        };
        PublicChartDatasetConfig: {
            id: string;
            legend: string | null;
            datasetColor: string | null;
            /** @description A colour or an array of colours */
            fillColor: unknown;
            fill: boolean;
            multiFill: boolean;
            pointRadius: number | null;
            order: number | null;
            goal: number | null;
            formula: string | null;
        };
        PublicChart: {
            id: number;
            name: string | null;
            type: string | null;
            subType: string | null;
            /** @description Computed chart payload (see docs/chart-data.md); null when it could not be computed */
            chartData: unknown;
            chartDataUpdated: string | null;
            /** @description Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns */
            layout: unknown;
            /** @description Show the legend */
            displayLegend: boolean;
            /** @description Write each value on its point or bar (line and bar charts) */
            dataLabels: boolean;
            /** @description Stack the series of a bar chart */
            stacked: boolean;
            /** @description Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages */
            stackPercent: boolean;
            /**
             * @description A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts
             * @enum {unknown}
             */
            missingValues: "zero" | "preserve";
            /** @description Lay the bars of a bar chart horizontally */
            horizontal: boolean;
            /** @description Compare the last value with the one before it (`growth` in the chart data) */
            showGrowth: boolean;
            /** @description A fall is the good direction: growth statuses swap positive and negative */
            invertGrowth: boolean;
            /** @description Logarithmic value axis */
            isLogarithmic: boolean;
            /** @description The text of a markdown chart */
            content: string | null;
            /** @description The bands of a gauge: `[{min, max, label?, color?}]` */
            ranges: unknown;
            /** @description Rows per page of a table chart */
            defaultRowsPerPage: number | null;
            /** @description Top of the value axis (of a gauge, when it has no ranges) */
            maxValue: number | null;
            /** @description Bottom of the value axis (of a gauge, when it has no ranges) */
            minValue: number | null;
            /** @description Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`) */
            xLabelTicks: string | null;
            /** @description Radius of the points of a line or radar chart; a dataset config's own radius wins */
            pointRadius: number | null;
            /** @description Draw the last segment of a line chart dashed (a period still in progress) */
            dashedLastPoint: boolean;
            /** @description `chart`, or `kpichart` (Chartbrew's KPI view of the chart) */
            mode: string;
            /** @description Shown on the dashboard's report (its share page) */
            onReport: boolean;
            visualization: components["schemas"]["ChartVisualization"];
            ChartDatasetConfigs: components["schemas"]["PublicChartDatasetConfig"][];
            lastError?: {
                code: string;
                /** Format: date-time */
                at: string;
            } | null;
            refreshOverdue?: {
                /** Format: date-time */
                since: string;
                /** @description How often the chart should be refreshed, in seconds */
                everySeconds: number;
            } | null;
            error?: {
                code: string;
                message: string;
            };
        };
        SharedChart: {
            id: number;
            name: string | null;
            type: string | null;
            subType: string | null;
            /** @description Computed chart payload (see docs/chart-data.md); null when it could not be computed */
            chartData: unknown;
            chartDataUpdated: string | null;
            /** @description Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns */
            layout: unknown;
            /** @description Show the legend */
            displayLegend: boolean;
            /** @description Write each value on its point or bar (line and bar charts) */
            dataLabels: boolean;
            /** @description Stack the series of a bar chart */
            stacked: boolean;
            /** @description Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages */
            stackPercent: boolean;
            /**
             * @description A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts
             * @enum {unknown}
             */
            missingValues: "zero" | "preserve";
            /** @description Lay the bars of a bar chart horizontally */
            horizontal: boolean;
            /** @description Compare the last value with the one before it (`growth` in the chart data) */
            showGrowth: boolean;
            /** @description A fall is the good direction: growth statuses swap positive and negative */
            invertGrowth: boolean;
            /** @description Logarithmic value axis */
            isLogarithmic: boolean;
            /** @description The text of a markdown chart */
            content: string | null;
            /** @description The bands of a gauge: `[{min, max, label?, color?}]` */
            ranges: unknown;
            /** @description Rows per page of a table chart */
            defaultRowsPerPage: number | null;
            /** @description Top of the value axis (of a gauge, when it has no ranges) */
            maxValue: number | null;
            /** @description Bottom of the value axis (of a gauge, when it has no ranges) */
            minValue: number | null;
            /** @description Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`) */
            xLabelTicks: string | null;
            /** @description Radius of the points of a line or radar chart; a dataset config's own radius wins */
            pointRadius: number | null;
            /** @description Draw the last segment of a line chart dashed (a period still in progress) */
            dashedLastPoint: boolean;
            /** @description `chart`, or `kpichart` (Chartbrew's KPI view of the chart) */
            mode: string;
            /** @description Shown on the dashboard's report (its share page) */
            onReport: boolean;
            visualization: components["schemas"]["ChartVisualization"];
            ChartDatasetConfigs: components["schemas"]["PublicChartDatasetConfig"][];
            lastError?: {
                code: string;
                /** Format: date-time */
                at: string;
            } | null;
            refreshOverdue?: {
                /** Format: date-time */
                since: string;
                /** @description How often the chart should be refreshed, in seconds */
                everySeconds: number;
            } | null;
            error?: {
                code: string;
                message: string;
            };
            showBranding: boolean;
            /** @description The team's allowReportExport: the page may offer CSV/XLSX exports of its charts */
            allowExport: boolean;
            /**
             * @description Colour scheme of the page: light, dark, or follow the OS
             * @enum {unknown}
             */
            theme: "light" | "dark" | "os";
        };
        SharedDashboard: {
            name: string;
            brewName: string;
            dashboardTitle: string | null;
            description: string | null;
            logo: string | null;
            logoLink: string | null;
            backgroundColor: string | null;
            titleColor: string | null;
            headerCode: string | null;
            footerCode: string | null;
            showBranding: boolean;
            /** @description The team's allowReportExport: the page may offer CSV/XLSX exports of its charts */
            allowExport: boolean;
            timezone: string | null;
            /**
             * @description Colour scheme of the page: light, dark, or follow the OS
             * @enum {unknown}
             */
            theme: "light" | "dark" | "os";
            Charts: components["schemas"]["PublicChart"][];
            /** @description The report's filters (those with onReport), ordered; a viewer sends their states to the filter routes */
            DashboardFilters: components["schemas"]["PublicDashboardFilter"][];
        };
        SharedFilteredChart: {
            id: number;
            name: string | null;
            type: string | null;
            subType: string | null;
            /** @description Computed chart payload (see docs/chart-data.md); null when it could not be computed */
            chartData: unknown;
            chartDataUpdated: string | null;
            /** @description Where the chart sits on the dashboard, per breakpoint: `{"lg": [x, y, w, h]}` on 12 columns */
            layout: unknown;
            /** @description Show the legend */
            displayLegend: boolean;
            /** @description Write each value on its point or bar (line and bar charts) */
            dataLabels: boolean;
            /** @description Stack the series of a bar chart */
            stacked: boolean;
            /** @description Stack the series of a bar chart as shares of each label's total (100 %), the values becoming percentages */
            stackPercent: boolean;
            /**
             * @description A label where a series has no point: plotted as 0 (`zero`), or left empty, a gap in the line, no bar (`preserve`: the value is null). Line, bar, radar, polar, pie and doughnut charts
             * @enum {unknown}
             */
            missingValues: "zero" | "preserve";
            /** @description Lay the bars of a bar chart horizontally */
            horizontal: boolean;
            /** @description Compare the last value with the one before it (`growth` in the chart data) */
            showGrowth: boolean;
            /** @description A fall is the good direction: growth statuses swap positive and negative */
            invertGrowth: boolean;
            /** @description Logarithmic value axis */
            isLogarithmic: boolean;
            /** @description The text of a markdown chart */
            content: string | null;
            /** @description The bands of a gauge: `[{min, max, label?, color?}]` */
            ranges: unknown;
            /** @description Rows per page of a table chart */
            defaultRowsPerPage: number | null;
            /** @description Top of the value axis (of a gauge, when it has no ranges) */
            maxValue: number | null;
            /** @description Bottom of the value axis (of a gauge, when it has no ranges) */
            minValue: number | null;
            /** @description Which x-axis labels to write: as many as fit (`default`), every second, third or fourth (`half`, `third`, `fourth`), or all (`showAll`) */
            xLabelTicks: string | null;
            /** @description Radius of the points of a line or radar chart; a dataset config's own radius wins */
            pointRadius: number | null;
            /** @description Draw the last segment of a line chart dashed (a period still in progress) */
            dashedLastPoint: boolean;
            /** @description `chart`, or `kpichart` (Chartbrew's KPI view of the chart) */
            mode: string;
            /** @description Shown on the dashboard's report (its share page) */
            onReport: boolean;
            visualization: components["schemas"]["ChartVisualization"];
            ChartDatasetConfigs: components["schemas"]["PublicChartDatasetConfig"][];
            lastError?: {
                code: string;
                /** Format: date-time */
                at: string;
            } | null;
            refreshOverdue?: {
                /** Format: date-time */
                since: string;
                /** @description How often the chart should be refreshed, in seconds */
                everySeconds: number;
            } | null;
            error?: {
                code: string;
                message: string;
            };
            /** @description Variables of the datasets that had no value in this run */
            variablesWithoutValue: string[];
            /** @description Ids (as sent) of the state's filters that narrow this chart: a field filter reaches a chart computed from a dataset, a date filter one with a date field, each unless its `charts` leave it out; a variable filter one whose dataset's requests name the variable. A filter without a value narrows nothing; one sent without an id is not listed */
            filteredBy: string[];
            /**
             * @description Whether the answer came from the result cache
             * @enum {unknown}
             */
            cacheStatus?: "hit" | "miss" | "stale" | "bypass";
        };
        SharedFilteredCharts: {
            charts: (components["schemas"]["SharedFilteredChart"] | components["schemas"]["ChartRunFailure"])[];
        };
        SnapshotRequest: {
            /**
             * @description png (one picture of the whole dashboard) or pdf (default png)
             * @enum {unknown}
             */
            format?: "png" | "pdf";
            /**
             * @description The report page theme to draw with (default light)
             * @enum {unknown}
             */
            theme?: "light" | "dark";
            /** @description Viewport width in pixels (default 1280); the layout's 12 columns fill it */
            width?: number;
            /** @description Chartbrew's body: `viewport.width` is the width when `width` is absent; the height follows the layout */
            viewport?: {
                width?: number;
                height?: number;
            };
            /** @description Chartbrew's option, accepted and ignored: the picture is the report page's card look */
            removeStyling?: boolean;
            /** @description Chartbrew's option, accepted and ignored: the header holds the title, data time and filters */
            removeHeader?: boolean;
            /**
             * @description PDF only: one page per screen of the layout (16:9 of the width, cut between rows of cards; default) or one long page
             * @enum {unknown}
             */
            pages?: "screens" | "single";
            /** @description A runtime filter state, as `POST /project/{id}/filter` takes it (field, date and variable filters); the charts are computed for it, never saved */
            filters?: {
                [key: string]: unknown;
            }[];
            /** @description Variable values for this run, `{name: value}` (a list variable takes a JSON array); `[]` is no variables */
            variables?: {
                [key: string]: unknown;
            } | unknown[];
            /** @description Chartbrew's schedule field `timezone`, accepted and ignored: a schedule is set with `snapshotSchedule` on `PUT /project/{id}` */
            timezone?: unknown;
            /** @description Chartbrew's schedule field `frequency`, accepted and ignored: a schedule is set with `snapshotSchedule` on `PUT /project/{id}` */
            frequency?: unknown;
            /** @description Chartbrew's schedule field `frequencyNumber`, accepted and ignored: a schedule is set with `snapshotSchedule` on `PUT /project/{id}` */
            frequencyNumber?: unknown;
            /** @description Chartbrew's schedule field `dayOfWeek`, accepted and ignored: a schedule is set with `snapshotSchedule` on `PUT /project/{id}` */
            dayOfWeek?: unknown;
            /** @description Chartbrew's schedule field `time`, accepted and ignored: a schedule is set with `snapshotSchedule` on `PUT /project/{id}` */
            time?: unknown;
            /** @description Chartbrew's schedule field `mediums`, accepted and ignored: a schedule is set with `snapshotSchedule` on `PUT /project/{id}` */
            mediums?: unknown;
            /** @description Chartbrew's schedule field `integrations`, accepted and ignored: a schedule is set with `snapshotSchedule` on `PUT /project/{id}` */
            integrations?: unknown;
            /** @description Chartbrew's schedule field `customEmails`, accepted and ignored: a schedule is set with `snapshotSchedule` on `PUT /project/{id}` */
            customEmails?: unknown;
        };
        SnapshotLink: {
            /** @description The picture's path below the API's address (`image/<token>`), as Chartbrew answers it: `<API host>/<snapshot_path>` serves the picture */
            snapshot_path: string;
            /** @description The same signed link, absolute (`BASE_URL/image/<token>`) */
            url: string;
            /** Format: date-time */
            expiresAt: string;
        };
        AlertIntegration: {
            id: number;
            alert_id: number;
            integration_id: number;
            enabled: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        CreateAlert: {
            /** @enum {unknown} */
            type: "milestone" | "threshold_above" | "threshold_below" | "anomaly";
            name?: string | null;
            cdc_id?: string | null;
            rules?: {
                /** @description Threshold or milestone (a number, or a number as text); for anomaly the number of standard deviations (default 3) */
                value?: number | string;
            };
            /** @description Emails of team members */
            recipients?: string[];
            mediums?: {
                email?: {
                    enabled: boolean;
                };
                webhook?: {
                    enabled: boolean;
                    url?: string;
                };
            };
            /** @description Seconds before the alert may notify again (default 600) */
            timeout?: number;
            active?: boolean;
            /** @description The team's integrations (GET /team/{id}/integration) this alert notifies; the list replaces the alert's own */
            alertIntegrations?: {
                integration_id: number;
                /** @description Default true */
                enabled?: boolean;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly alert_id?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly createdAt?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly id?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly updatedAt?: unknown;
            }[];
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly AlertEvents?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly AlertIntegrations?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chart_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly dataset_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly events?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastTriggered?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastTriggeredAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly webhookSecret?: unknown;
        };
        UpdateAlert: {
            /** @enum {unknown} */
            type?: "milestone" | "threshold_above" | "threshold_below" | "anomaly";
            name?: string | null;
            cdc_id?: string | null;
            rules?: {
                /** @description Threshold or milestone (a number, or a number as text); for anomaly the number of standard deviations (default 3) */
                value?: number | string;
            };
            /** @description Emails of team members */
            recipients?: string[];
            mediums?: {
                email?: {
                    enabled: boolean;
                };
                webhook?: {
                    enabled: boolean;
                    url?: string;
                };
            };
            /** @description Seconds before the alert may notify again (default 600) */
            timeout?: number;
            active?: boolean;
            /** @description The team's integrations (GET /team/{id}/integration) this alert notifies; the list replaces the alert's own */
            alertIntegrations?: {
                integration_id: number;
                /** @description Default true */
                enabled?: boolean;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly alert_id?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly createdAt?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly id?: unknown;
                /** @description Read-only: part of the answer; accepted in a body and ignored */
                readonly updatedAt?: unknown;
            }[];
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly AlertEvents?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly AlertIntegrations?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chart_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly dataset_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly events?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastTriggered?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastTriggeredAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly webhookSecret?: unknown;
        };
        AlertEvent: {
            id: number;
            alert_id: number;
            chart_id: number;
            run_id: number | null;
            value: number | null;
            message: string;
            deliveries: {
                /** @description `webhook`, `email` or `integration` */
                medium: string;
                ok: boolean;
                detail: string;
                /** @description The integration notified (medium `integration`) */
                integration_id?: number;
            }[];
            /** Format: date-time */
            createdAt: string;
        };
        Alert: {
            id: number;
            chart_id: number;
            project_id: number;
            cdc_id: string | null;
            name: string | null;
            type: string;
            rules: {
                /** @description Threshold or milestone; for anomaly the number of standard deviations (default 3) */
                value?: number;
            };
            recipients: string[];
            mediums: {
                email?: {
                    enabled: boolean;
                };
                webhook?: {
                    enabled: boolean;
                    url: string;
                };
            };
            timeout: number;
            active: boolean;
            lastTriggeredAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description HMAC-SHA256 key of the webhook signature header; shown only when it is created, "********" afterwards */
            webhookSecret?: string;
            /** @description Latest notifications, newest first (single-alert reads) */
            events?: components["schemas"]["AlertEvent"][];
            AlertIntegrations: components["schemas"]["AlertIntegration"][];
        };
        AlertMediumsStatus: {
            email: {
                /** @description An SMTP server is configured (PLOTLINE_SMTP_URL): alerts may e-mail their recipients */
                available: boolean;
            };
            webhook: {
                /** @description Always true: a webhook needs no server setting */
                available: boolean;
            };
        };
        AlertTestResult: {
            /** @description Each medium tried (webhook, integrations, e-mail) and whether it answered */
            deliveries: {
                /** @description `webhook`, `email` or `integration` */
                medium: string;
                ok: boolean;
                detail: string;
                /** @description The integration notified (medium `integration`) */
                integration_id?: number;
            }[];
        };
        Integration: {
            id: number;
            team_id: number;
            name: string;
            /** @enum {unknown} */
            type: "webhook";
            config: {
                /** @description The URL's origin followed by "********": its path and query usually hold its credential */
                url: string;
                slackMode: boolean;
            };
            /** @description HMAC-SHA256 key of the `x-plotline-signature` header of every delivery; shown only when the integration is created, "********" afterwards */
            webhookSecret: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        CreateIntegration: {
            name: string;
            /** @description webhook */
            type: string;
            config: {
                /** @description An absolute http(s) URL, checked against the outbound address policy. Answered as its origin and "********"; sent back so (or as "********"), the stored URL stays */
                url: string;
                /** @description A Slack incoming webhook: the alert goes as a Slack message (`{text}`) */
                slackMode?: boolean;
            };
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly AlertIntegrations?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly webhookSecret?: unknown;
        };
        UpdateIntegration: {
            name?: string;
            type?: string;
            config?: {
                /** @description An absolute http(s) URL, checked against the outbound address policy. Answered as its origin and "********"; sent back so (or as "********"), the stored URL stays */
                url?: string;
                slackMode?: boolean;
            };
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly AlertIntegrations?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly team_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly webhookSecret?: unknown;
        };
        CreateSubscription: {
            name?: string | null;
            schedule: {
                /** @description One of daily, weekdays, weekly, monthly, every_x_days, every_x_hours, every_x_minutes */
                frequency: string;
                /** @description every_x_*: how many minutes, hours or days after the last delivery (a number or its digits; every_x_minutes 15-1440, every_x_hours 1-8760, every_x_days 1-365); ignored otherwise */
                frequencyNumber?: number | string;
                /** @description Wall-clock time in `timezone` (default 09:00); ignored by every_x_* */
                time?: {
                    hour?: number;
                    minute?: number;
                };
                /** @description IANA time zone (default UTC) */
                timezone?: string;
                /** @description 1-7 (Monday = 1) or a day name */
                dayOfWeek?: number | string;
                /** @description Monthly: the day (past the month's end: its last day) */
                dayOfMonth?: number;
                /** @description Daily: only on these days */
                daysOfWeek?: (number | string)[];
            };
            /**
             * @description png: inline picture; pdf: a dashboard as an attached PDF; csv: a table chart as an attached CSV
             * @enum {unknown}
             */
            format?: "png" | "pdf" | "csv";
            /** @enum {unknown} */
            theme?: "light" | "dark";
            filters?: {
                /** @description Runtime filters, as `POST /project/{id}/filter` takes them */
                filters?: unknown[];
                /** @description Variable values, as the filter runs take them */
                variables?: {
                    [key: string]: unknown;
                };
            } | null;
            /** @description E-mail addresses: the team's members, others only when the team's `allowExternalRecipients` is on */
            recipients?: string[];
            /** @description Slack incoming-webhook URLs; one sent back as answered (or "********") keeps the stored one at its place */
            slackWebhooks?: string[];
            integrations?: number[];
            webhook?: {
                url: string;
            } | null;
            active?: boolean;
            chart_id?: number | null;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastSentAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly nextAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly origin?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly webhookSecret?: unknown;
        };
        UpdateSubscription: {
            name?: string | null;
            schedule?: {
                /** @description One of daily, weekdays, weekly, monthly, every_x_days, every_x_hours, every_x_minutes */
                frequency: string;
                /** @description every_x_*: how many minutes, hours or days after the last delivery (a number or its digits; every_x_minutes 15-1440, every_x_hours 1-8760, every_x_days 1-365); ignored otherwise */
                frequencyNumber?: number | string;
                /** @description Wall-clock time in `timezone` (default 09:00); ignored by every_x_* */
                time?: {
                    hour?: number;
                    minute?: number;
                };
                /** @description IANA time zone (default UTC) */
                timezone?: string;
                /** @description 1-7 (Monday = 1) or a day name */
                dayOfWeek?: number | string;
                /** @description Monthly: the day (past the month's end: its last day) */
                dayOfMonth?: number;
                /** @description Daily: only on these days */
                daysOfWeek?: (number | string)[];
            };
            /**
             * @description png: inline picture; pdf: a dashboard as an attached PDF; csv: a table chart as an attached CSV
             * @enum {unknown}
             */
            format?: "png" | "pdf" | "csv";
            /** @enum {unknown} */
            theme?: "light" | "dark";
            filters?: {
                /** @description Runtime filters, as `POST /project/{id}/filter` takes them */
                filters?: unknown[];
                /** @description Variable values, as the filter runs take them */
                variables?: {
                    [key: string]: unknown;
                };
            } | null;
            /** @description E-mail addresses: the team's members, others only when the team's `allowExternalRecipients` is on */
            recipients?: string[];
            /** @description Slack incoming-webhook URLs; one sent back as answered (or "********") keeps the stored one at its place */
            slackWebhooks?: string[];
            integrations?: number[];
            webhook?: {
                url: string;
            } | null;
            active?: boolean;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly chart_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly createdAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly lastSentAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly nextAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly origin?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly project_id?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly updatedAt?: unknown;
            /** @description Read-only: part of the answer; accepted in a body and ignored */
            readonly webhookSecret?: unknown;
        };
        Subscription: {
            id: number;
            project_id: number;
            chart_id: number | null;
            name: string | null;
            schedule: {
                /** @enum {unknown} */
                frequency: "daily" | "weekdays" | "weekly" | "monthly" | "every_x_days" | "every_x_hours" | "every_x_minutes";
                /** @description every_x_*: minutes, hours or days after the last delivery */
                frequencyNumber?: number;
                /** @description Absent for every_x_* */
                time?: {
                    hour: number;
                    minute: number;
                };
                timezone: string;
                dayOfWeek?: number;
                dayOfMonth?: number;
                daysOfWeek?: number[];
            };
            /** @enum {unknown} */
            format: "png" | "pdf" | "csv";
            /** @enum {unknown} */
            theme: "light" | "dark";
            filters: {
                /** @description Runtime filters, as `POST /project/{id}/filter` takes them */
                filters?: unknown[];
                /** @description Variable values, as the filter runs take them */
                variables?: {
                    [key: string]: unknown;
                };
            } | null;
            /** @description E-mail addresses */
            recipients: string[];
            /** @description Slack incoming-webhook URLs */
            slackWebhooks: string[];
            /** @description The team's integrations (webhooks, Slack incoming webhooks) it is sent to */
            integrations: number[];
            webhook: {
                /** @description The URL's origin followed by "********": its path holds its credential */
                url: string;
            } | null;
            /** @description HMAC-SHA256 key of the webhook's `x-plotline-signature` header; shown when the webhook is first set, "********" afterwards */
            webhookSecret?: string;
            /** @description False while paused */
            active: boolean;
            /** @description `api`, or `snapshotSchedule` for the one written through `PUT /project/{id}` */
            origin: string;
            lastSentAt: string | null;
            nextAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        SubscriptionRun: {
            id: number;
            subscription_id: number;
            /** @enum {unknown} */
            trigger: "schedule" | "manual";
            period: string | null;
            /**
             * @description `running`: being delivered (`deliveries` so far); `sent` to every target, `partial`, `failed`; `interrupted`: the process delivering it stopped before the end (`deliveries`: the targets it had reached; `error` says whether a later run resumed it)
             * @enum {unknown}
             */
            status: "running" | "sent" | "partial" | "failed" | "interrupted";
            /** Format: date-time */
            startedAt: string;
            /** @description So far, while `running` */
            durationMs: number;
            dataUpdatedAt: string | null;
            deliveries: {
                /** @enum {unknown} */
                medium: "email" | "slack" | "webhook" | "integration";
                /** @description The address, or the URL's origin */
                target: string;
                ok: boolean;
                /** @description Tries of this send (0: not sent, e.g. no longer a member of the team) */
                attempts: number;
                detail: string;
                /** @description Present when an earlier, interrupted run of the same period sent it: that run; it was not sent again */
                sentInRun?: number;
            }[];
            error: string | null;
            /** @description The interrupted run of the same period this one resumed, sending only to the targets it had not reached */
            resumed_from: number | null;
        };
        DeliveryStatus: {
            /** @description An SMTP server is configured (PLOTLINE_SMTP_URL): email recipients are accepted */
            email: boolean;
            /** @description Slack incoming webhooks are accepted (always) */
            slack: boolean;
            /** @description The team's setting: email to addresses outside the team */
            allowExternalRecipients: boolean;
            /** @description Targets one subscription may have */
            maxRecipients: number;
        };
        RefreshRunChart: {
            chart_id: number;
            status: "success" | "failure";
            /** @description How each dataset configuration was computed; empty when served from the cache */
            paths: ("pushdown" | "stream")[];
            rowsRead: number;
            cacheHit: boolean;
            durationMs: number;
            error: {
                code: string;
                message: string;
            } | null;
        };
        RefreshRun: {
            id: number;
            project_id: number;
            /** @description Set for a single-chart refresh; null for a whole dashboard */
            chart_id: number | null;
            trigger: "manual" | "schedule" | "auto";
            status: "success" | "partial_failure" | "failure";
            /** Format: date-time */
            startedAt: string;
            durationMs: number;
            error: {
                code: string;
                message: string;
            } | null;
            charts: components["schemas"]["RefreshRunChart"][];
        };
        RefreshRunPage: {
            runs: components["schemas"]["RefreshRun"][];
            total: number;
            limit: number;
            offset: number;
        };
        RunChart: {
            filters?: unknown[] | {
                [key: string]: unknown;
            };
            /** @description Variable values for this run, `{name: value}` (a list variable takes a JSON array); `[]` is no variables */
            variables?: {
                [key: string]: unknown;
            } | unknown[];
        } | null;
    };
    responses: {
        /** @description Every non-2xx answer */
        Error: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        status: string;
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
            503: components["responses"]["Error"];
        };
    };
    signUp: {
        parameters: {
            query?: {
                /** @description Browser mode: the session token is set as an HttpOnly SameSite=Strict cookie (Secure over https) and left out of the body; the request's Origin must be this server's */
                session?: "cookie";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ada Lovelace",
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery"
                 *     }
                 */
                "application/json": components["schemas"]["SignUp"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    anyUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnyUsers"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    logIn: {
        parameters: {
            query?: {
                /** @description Browser mode: the session token is set as an HttpOnly SameSite=Strict cookie (Secure over https) and left out of the body; the request's Origin must be this server's */
                session?: "cookie";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "password": "correct horse battery"
                 *     }
                 */
                "application/json": components["schemas"]["LogIn"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    signUpInvited: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Grace Hopper",
                 *       "email": "grace@example.com",
                 *       "password": "correct horse battery",
                 *       "inviteToken": "pli_3q2b9dXo1mG0m0lq6n2s4T5Yw8Zc7Vb1Na0Kf9Jh2Ug"
                 *     }
                 */
                "application/json": components["schemas"]["InvitedSignUp"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            410: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    checkForUpdates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateCheck"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getSharedChart: {
        parameters: {
            query?: {
                token?: string;
                /** @description Colour scheme of the page: light, dark, or follow the OS */
                theme?: "light" | "dark" | "os";
            };
            header?: never;
            path: {
                share_string: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedChart"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getSharedDashboard: {
        parameters: {
            query?: {
                token?: string;
                /** @description Colour scheme of the page: light, dark, or follow the OS */
                theme?: "light" | "dark" | "os";
            };
            header?: {
                pass?: string;
            };
            path: {
                brewName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedDashboard"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getSharedReport: {
        parameters: {
            query?: {
                token?: string;
                /** @description Colour scheme of the page: light, dark, or follow the OS */
                theme?: "light" | "dark" | "os";
            };
            header?: {
                pass?: string;
            };
            path: {
                brewName: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedDashboard"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    filterChart: {
        parameters: {
            query?: {
                token?: string;
                /** @description Colour scheme of the page: light, dark, or follow the OS */
                theme?: "light" | "dark" | "os";
            };
            header?: {
                pass?: string;
            };
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "filters": [
                 *         {
                 *           "id": "period",
                 *           "type": "date",
                 *           "preset": "last_30_days"
                 *         },
                 *         {
                 *           "id": "country",
                 *           "type": "field",
                 *           "field": "country",
                 *           "value": "DE"
                 *         }
                 *       ],
                 *       "variables": []
                 *     }
                 */
                "application/json": components["schemas"]["FilterChartRun"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FilteredChart"] | components["schemas"]["SharedFilteredChart"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    filterSharedDashboard: {
        parameters: {
            query?: {
                token?: string;
                /** @description Colour scheme of the page: light, dark, or follow the OS */
                theme?: "light" | "dark" | "os";
            };
            header?: {
                pass?: string;
            };
            path: {
                brewName: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "filters": [
                 *         {
                 *           "id": "period",
                 *           "type": "date",
                 *           "preset": "last_30_days"
                 *         },
                 *         {
                 *           "id": "country",
                 *           "type": "field",
                 *           "field": "country",
                 *           "value": "DE"
                 *         }
                 *       ],
                 *       "variables": []
                 *     }
                 */
                "application/json": components["schemas"]["SharedFilterDashboardRun"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedFilteredCharts"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getSharedFilterValues: {
        parameters: {
            query?: {
                token?: string;
                /** @description Colour scheme of the page: light, dark, or follow the OS */
                theme?: "light" | "dark" | "os";
                /**
                 * @description Only values whose text contains this, ignoring case
                 * @example fr
                 */
                search?: string;
                /** @description At most this many values (default 100, at most 1000) */
                limit?: number;
            };
            header?: {
                pass?: string;
            };
            path: {
                brewName: string;
                /** @description A UUID */
                fid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The values a filter dropdown offers for one field of a dataset */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatasetValues"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    exportSharedChart: {
        parameters: {
            query: {
                token?: string;
                /** @description Colour scheme of the page: light, dark, or follow the OS */
                theme?: "light" | "dark" | "os";
                /** @description csv (UTF-8 with BOM) or xlsx */
                format: "csv" | "xlsx";
            };
            header?: never;
            path: {
                share_string: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (text/csv or an XLSX workbook) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    exportSharedDashboardChart: {
        parameters: {
            query: {
                token?: string;
                /** @description Colour scheme of the page: light, dark, or follow the OS */
                theme?: "light" | "dark" | "os";
                /** @description csv (UTF-8 with BOM) or xlsx */
                format: "csv" | "xlsx";
            };
            header?: {
                pass?: string;
            };
            path: {
                brewName: string;
                chart_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (text/csv or an XLSX workbook) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    unsubscribePage: {
        parameters: {
            query: {
                /** @description The signed token of the unsubscribe link */
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            /** @description An HTML page */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    unsubscribe: {
        parameters: {
            query: {
                /** @description The signed token of the unsubscribe link */
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            /** @description An HTML page */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    signedImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed token of the link */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The picture */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/svg+xml": string;
                    "application/pdf": string;
                };
            };
            /** @description Every non-2xx answer */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                    "application/pdf": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                    "application/pdf": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                    "application/pdf": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                    "application/pdf": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                    "application/pdf": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                    "application/pdf": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                    "application/pdf": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                    "application/pdf": components["schemas"]["Error"];
                };
            };
        };
    };
    logOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoggedOut"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    renewSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller: a signed-in user, a user through a personal API key, or a team API key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listTeams: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createTeam: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Analytics",
                 *       "allowReportExport": true
                 *     }
                 */
                "application/json": components["schemas"]["CreateTeam"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Analytics",
                 *       "showBranding": false,
                 *       "allowReportRefresh": true,
                 *       "allowReportExport": true
                 *     }
                 */
                "application/json": components["schemas"]["UpdateTeam"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listUserTeams: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    acceptInvitationForUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "pli_3q2b9dXo1mG0m0lq6n2s4T5Yw8Zc7Vb1Na0Kf9Jh2Ug"
                 *     }
                 */
                "application/json": components["schemas"]["AcceptInvitationByUser"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            410: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamMember"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    addMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "grace@example.com",
                 *       "role": "projectEditor",
                 *       "projects": [
                 *         2
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["AddTeamMember"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamMember"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                user_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "role": "projectViewer",
                 *       "projects": [
                 *         2
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["UpdateTeamMember"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamMember"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                user_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateTeamRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": 7,
                 *       "role": "projectEditor",
                 *       "projects": [
                 *         2
                 *       ],
                 *       "canExport": true
                 *     }
                 */
                "application/json": components["schemas"]["UpdateTeamRole"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TeamRole"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    removeTeamMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                user_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberRemoved"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvitation"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedInvitation"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getInvitationEmail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description False: share the link yourself */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        configured: boolean;
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                invite_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "inviteToken": "pli_3q2b9dXo1mG0m0lq6n2s4T5Yw8Zc7Vb1Na0Kf9Jh2Ug"
                 *     }
                 */
                "application/json": components["schemas"]["AcceptInvitation"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            410: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listTeamApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createTeamApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "CI reporting",
                 *       "role": "projectViewer",
                 *       "projects": [
                 *         2
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateApiKey"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithToken"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteTeamApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listPersonalApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalApiKey"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createPersonalApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "My laptop",
                 *       "ceiling": "projectEditor"
                 *     }
                 */
                "application/json": components["schemas"]["CreatePersonalApiKey"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalApiKeyWithToken"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deletePersonalApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listDatasets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dataset"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Orders",
                 *       "project_ids": [
                 *         2
                 *       ],
                 *       "legend": "Orders"
                 *     }
                 */
                "application/json": components["schemas"]["CreateDataset"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dataset"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    quickCreateDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Orders",
                 *       "project_ids": [
                 *         2
                 *       ],
                 *       "dataRequests": [
                 *         {
                 *           "connection_id": 4,
                 *           "query": "select created_at, amount, country from orders where status = {{status}}",
                 *           "variableBindings": [
                 *             {
                 *               "name": "status",
                 *               "type": "string",
                 *               "default_value": "paid"
                 *             }
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["QuickCreateDataset"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dataset"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dataset"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Paid orders",
                 *       "legend": "Paid orders"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateDataset"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dataset"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": boolean;
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listDataRequests: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRequest"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createDataRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "connection_id": 4,
                 *       "query": "select created_at, amount, country from orders where status = {{status}}"
                 *     }
                 */
                "application/json": components["schemas"]["DataRequestInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRequest"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getDataRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRequest"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateDataRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "select * from orders where country = {{country}}"
                 *     }
                 */
                "application/json": components["schemas"]["DataRequestInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRequest"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteDataRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createVariableBinding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateVariableBinding"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRequest"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateVariableBinding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
                id: number;
                variable_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "default_value": "DE"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateVariableBinding"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRequest"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteVariableBinding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
                id: number;
                variable_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRequest"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    runDataRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "variables": {
                 *         "status": "paid"
                 *       },
                 *       "limit": 100
                 *     }
                 */
                "application/json": components["schemas"]["RunInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRequestRun"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    runDataRequestDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "select status, count(*) as n from orders where status = {{status}} group by 1",
                 *       "variables": {
                 *         "status": "paid"
                 *       },
                 *       "limit": 100
                 *     }
                 */
                "application/json": components["schemas"]["DraftRunInput"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DataRequestRun"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    runDatasetGet: {
        parameters: {
            query?: {
                noSource?: "true" | "false" | "1" | "0";
                getCache?: "true" | "false" | "1" | "0";
                filters?: string;
                /** @description JSON object of variable values */
                variables?: string;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dataset, its rows (joined and filtered), run metadata and cache status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatasetRun"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    runDataset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "variables": {
                 *         "status": "paid"
                 *       },
                 *       "limit": 100
                 *     }
                 */
                "application/json": components["schemas"]["RunInput"];
            };
        };
        responses: {
            /** @description The dataset, its rows (joined and filtered), run metadata and cache status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatasetRun"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listDatasetValues: {
        parameters: {
            query: {
                /**
                 * @description A field of the rows, as charts name them: `root[].country`, `country`, `root.items[].sku`
                 * @example root[].country
                 */
                field: string;
                /**
                 * @description Only values whose text contains this, ignoring case
                 * @example fr
                 */
                search?: string;
                /** @description At most this many values (default 100, at most 1000) */
                limit?: number;
            };
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The values a filter dropdown offers for one field of a dataset */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatasetValues"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    previewChart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Revenue per day",
                 *       "type": "line",
                 *       "timeInterval": "day",
                 *       "includeZeros": true,
                 *       "chartDatasetConfigs": [
                 *         {
                 *           "dataset_id": 7,
                 *           "xAxis": "root[].created_at",
                 *           "dateField": "root[].created_at",
                 *           "yAxis": "root[].amount",
                 *           "yAxisOperation": "sum",
                 *           "legend": "Revenue"
                 *         }
                 *       ],
                 *       "variables": {
                 *         "status": "paid"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PreviewChart"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChartPreview"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    runChart: {
        parameters: {
            query?: {
                getCache?: "true" | "false" | "1" | "0";
                noSource?: "true" | "false" | "1" | "0";
                no_source?: "true" | "false" | "1" | "0";
                skip_parsing?: "true" | "false" | "1" | "0";
            };
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "variables": {
                 *         "status": "paid"
                 *       },
                 *       "filters": [
                 *         {
                 *           "field": "country",
                 *           "operator": "is",
                 *           "value": "FR"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["RunChart"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChartRunAnswer"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    refreshDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshRun"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getProjectByIdRuns: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshRunPage"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getProjectByProjectIdChartByIdRuns: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshRunPage"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getProjectByProjectIdChartByIdAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alert"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    postProjectByProjectIdChartByIdAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Revenue above target",
                 *       "type": "threshold_above",
                 *       "rules": {
                 *         "value": 10000
                 *       },
                 *       "recipients": [
                 *         "ada@example.com"
                 *       ],
                 *       "mediums": {
                 *         "email": {
                 *           "enabled": true
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateAlert"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alert"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getProjectByProjectIdChartByIdAlertByAlertId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                alert_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alert"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    putProjectByProjectIdChartByIdAlertByAlertId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                alert_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "rules": {
                 *         "value": 12000
                 *       },
                 *       "active": false
                 *     }
                 */
                "application/json": components["schemas"]["UpdateAlert"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alert"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteProjectByProjectIdChartByIdAlertByAlertId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                alert_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    postProjectByProjectIdChartByIdAlertByAlertIdTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                alert_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertTestResult"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getProjectByProjectIdChartByIdAlertMediums: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertMediumsStatus"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getProjectDeliveryStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryStatus"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listProjectSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createProjectSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Monday numbers",
                 *       "schedule": {
                 *         "frequency": "weekly",
                 *         "dayOfWeek": 1,
                 *         "time": {
                 *           "hour": 9,
                 *           "minute": 0
                 *         },
                 *         "timezone": "Europe/Paris"
                 *       },
                 *       "format": "png",
                 *       "recipients": [
                 *         "ada@example.com"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateSubscription"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getProjectSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                sid: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateProjectSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                sid: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "active": false
                 *     }
                 */
                "application/json": components["schemas"]["UpdateSubscription"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteProjectSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                sid: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    sendProjectSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                sid: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionRun"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listProjectSubscriptionRuns: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                id: number;
                sid: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        runs: {
                            id: number;
                            subscription_id: number;
                            /** @enum {unknown} */
                            trigger: "schedule" | "manual";
                            period: string | null;
                            /**
                             * @description `running`: being delivered (`deliveries` so far); `sent` to every target, `partial`, `failed`; `interrupted`: the process delivering it stopped before the end (`deliveries`: the targets it had reached; `error` says whether a later run resumed it)
                             * @enum {unknown}
                             */
                            status: "running" | "sent" | "partial" | "failed" | "interrupted";
                            /** Format: date-time */
                            startedAt: string;
                            /** @description So far, while `running` */
                            durationMs: number;
                            dataUpdatedAt: string | null;
                            deliveries: {
                                /** @enum {unknown} */
                                medium: "email" | "slack" | "webhook" | "integration";
                                /** @description The address, or the URL's origin */
                                target: string;
                                ok: boolean;
                                /** @description Tries of this send (0: not sent, e.g. no longer a member of the team) */
                                attempts: number;
                                detail: string;
                                /** @description Present when an earlier, interrupted run of the same period sent it: that run; it was not sent again */
                                sentInRun?: number;
                            }[];
                            error: string | null;
                            /** @description The interrupted run of the same period this one resumed, sending only to the targets it had not reached */
                            resumed_from: number | null;
                        }[];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listChartSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createChartSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Monday numbers",
                 *       "schedule": {
                 *         "frequency": "weekly",
                 *         "dayOfWeek": 1,
                 *         "time": {
                 *           "hour": 9,
                 *           "minute": 0
                 *         },
                 *         "timezone": "Europe/Paris"
                 *       },
                 *       "format": "png",
                 *       "recipients": [
                 *         "ada@example.com"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateSubscription"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getChartSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                sid: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateChartSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                sid: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "active": false
                 *     }
                 */
                "application/json": components["schemas"]["UpdateSubscription"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteChartSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                sid: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    sendChartSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                sid: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionRun"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listChartSubscriptionRuns: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                project_id: number;
                id: number;
                sid: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        runs: {
                            id: number;
                            subscription_id: number;
                            /** @enum {unknown} */
                            trigger: "schedule" | "manual";
                            period: string | null;
                            /**
                             * @description `running`: being delivered (`deliveries` so far); `sent` to every target, `partial`, `failed`; `interrupted`: the process delivering it stopped before the end (`deliveries`: the targets it had reached; `error` says whether a later run resumed it)
                             * @enum {unknown}
                             */
                            status: "running" | "sent" | "partial" | "failed" | "interrupted";
                            /** Format: date-time */
                            startedAt: string;
                            /** @description So far, while `running` */
                            durationMs: number;
                            dataUpdatedAt: string | null;
                            deliveries: {
                                /** @enum {unknown} */
                                medium: "email" | "slack" | "webhook" | "integration";
                                /** @description The address, or the URL's origin */
                                target: string;
                                ok: boolean;
                                /** @description Tries of this send (0: not sent, e.g. no longer a member of the team) */
                                attempts: number;
                                detail: string;
                                /** @description Present when an earlier, interrupted run of the same period sent it: that run; it was not sent again */
                                sentInRun?: number;
                            }[];
                            error: string | null;
                            /** @description The interrupted run of the same period this one resumed, sending only to the targets it had not reached */
                            resumed_from: number | null;
                        }[];
                        total: number;
                        limit: number;
                        offset: number;
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listIntegrations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ops channel",
                 *       "type": "webhook",
                 *       "config": {
                 *         "url": "https://hooks.slack.com/services/T000/B000/XXXX",
                 *         "slackMode": true
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateIntegration"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Ops alerts",
                 *       "config": {
                 *         "url": "https://hooks.slack.com/********",
                 *         "slackMode": true
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["UpdateIntegration"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listSavedQueries: {
        parameters: {
            query?: {
                /** @description Only the saved queries of this connection type */
                type?: string;
            };
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedQuery"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createSavedQuery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "summary": "Paid orders per day",
                 *       "query": "select date(created_at), sum(amount) from orders where status = 'paid' group by 1",
                 *       "type": "postgres"
                 *     }
                 */
                "application/json": components["schemas"]["CreateSavedQuery"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedQuery"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateSavedQuery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "select date(created_at), count(*) from orders group by 1"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateSavedQuery"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedQuery"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteSavedQuery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": boolean;
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listProjects: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectSummary"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Sales",
                 *       "team_id": 1,
                 *       "timezone": "Europe/Paris",
                 *       "updateSchedule": {
                 *         "frequency": "daily",
                 *         "time": {
                 *           "hour": 6,
                 *           "minute": 0
                 *         },
                 *         "timezone": "Europe/Paris"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateProject"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "dashboardTitle": "Sales overview",
                 *       "backgroundColor": "#0f172a",
                 *       "titleColor": "#f8fafc",
                 *       "timezone": "UTC"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateProject"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Removed"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listCharts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chart"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createChart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Revenue per day",
                 *       "type": "line",
                 *       "timeInterval": "day",
                 *       "includeZeros": true
                 *     }
                 */
                "application/json": components["schemas"]["CreateChart"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chart"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    quickCreateChart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Revenue per day",
                 *       "type": "line",
                 *       "timeInterval": "day",
                 *       "includeZeros": true,
                 *       "layout": {
                 *         "lg": [
                 *           0,
                 *           0,
                 *           6,
                 *           2
                 *         ]
                 *       },
                 *       "chartDatasetConfigs": [
                 *         {
                 *           "dataset_id": 7,
                 *           "xAxis": "root[].created_at",
                 *           "dateField": "root[].created_at",
                 *           "yAxis": "root[].amount",
                 *           "yAxisOperation": "sum",
                 *           "legend": "Revenue"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["QuickCreateChart"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chart"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getChart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chart"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateChart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Revenue",
                 *       "type": "bar",
                 *       "layout": {
                 *         "lg": [
                 *           6,
                 *           0,
                 *           6,
                 *           2
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["UpdateChart"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chart"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteChart: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createChartDatasetConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "dataset_id": 7,
                 *       "xAxis": "root[].created_at",
                 *       "dateField": "root[].created_at",
                 *       "yAxis": "root[].amount",
                 *       "yAxisOperation": "sum",
                 *       "legend": "Revenue"
                 *     }
                 */
                "application/json": components["schemas"]["CreateChartDatasetConfig"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChartDatasetConfig"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateChartDatasetConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                cdc_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "yAxisOperation": "avg",
                 *       "formula": "€{val}",
                 *       "datasetColor": "#4E79A7"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateChartDatasetConfig"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChartDatasetConfig"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteChartDatasetConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                cdc_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Removed"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createDashboardFilter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDashboardFilter"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardFilter"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listDashboardFilters: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardFilter"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    orderDashboardFilters: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "filterIds": [
                 *         "0b6f3c1e-6a53-4d5c-9b8f-2f1f1f7c0a11",
                 *         "5d2e9a40-1c1b-4a4e-8d0e-7c3b1e2f4a55"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["OrderDashboardFilters"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardFilter"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getDashboardFilter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                /** @description A UUID */
                fid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardFilter"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateDashboardFilter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                /** @description A UUID */
                fid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDashboardFilter"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardFilter"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteDashboardFilter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                /** @description A UUID */
                fid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    dashboardFilterReach: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "filters": [
                 *         {
                 *           "type": "date",
                 *           "id": "period"
                 *         },
                 *         {
                 *           "type": "field",
                 *           "id": "country",
                 *           "field": "country"
                 *         },
                 *         {
                 *           "type": "variable",
                 *           "id": "region",
                 *           "variable": "region"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["FilterReachRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FilterReach"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    filterDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "filters": [
                 *         {
                 *           "type": "date",
                 *           "preset": "last_30_days"
                 *         },
                 *         {
                 *           "field": "country",
                 *           "operator": "is",
                 *           "value": "FR"
                 *         }
                 *       ],
                 *       "variables": {
                 *         "country": "FR"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["FilterDashboardRun"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FilteredCharts"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listChartTemplates: {
        parameters: {
            query?: {
                /** @description Chartbrew's source filter: `custom` lists the team's templates; other sources have none */
                source?: string;
            };
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChartTemplate"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getChartTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                template_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChartTemplate"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteChartTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                template_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    saveChartTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "chart_id": 12,
                 *       "name": "Revenue per month",
                 *       "description": "Paid orders, summed by month"
                 *     }
                 */
                "application/json": components["schemas"]["SaveChartTemplate"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChartTemplate"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createChartFromTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                /** @description `custom` (the id in body.template_id) or the template id */
                template: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UseChartTemplate"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chart"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listDashboardTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTemplate"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createDashboardTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "project_id": 7,
                 *       "name": "Sales overview"
                 *     }
                 */
                "application/json": components["schemas"]["CreateDashboardTemplate"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTemplate"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    generateDashboardTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                project_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTemplateModel"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getDashboardTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                template_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTemplate"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateDashboardTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                template_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Sales overview (2027)"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateDashboardTemplate"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTemplate"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteDashboardTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                template_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listDashboardSharePolicies: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharePolicy"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createDashboardSharePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharePolicy"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateDashboardSharePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                policy_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "params": [
                 *         {
                 *           "key": "country",
                 *           "value": "FR"
                 *         }
                 *       ],
                 *       "allow_params": false,
                 *       "expires_at": "2030-01-01T00:00:00.000Z",
                 *       "visibility": "private"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateSharePolicy"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharePolicy"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteDashboardSharePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                policy_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    revokeDashboardSharePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                policy_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharePolicy"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listChartSharePolicies: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharePolicy"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createChartSharePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharePolicy"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateChartSharePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                policy_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "params": [
                 *         {
                 *           "key": "country",
                 *           "value": "FR"
                 *         }
                 *       ],
                 *       "allow_params": false,
                 *       "expires_at": "2030-01-01T00:00:00.000Z",
                 *       "visibility": "private"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateSharePolicy"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharePolicy"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteChartSharePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                policy_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    revokeChartSharePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
                policy_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharePolicy"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createDashboardShareToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sharePolicyId": 3,
                 *       "exp": "2030-01-01T00:00:00.000Z"
                 *     }
                 */
                "application/json": components["schemas"]["CreateShareToken"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareToken"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createChartShareToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sharePolicyId": 3,
                 *       "exp": "2030-01-01T00:00:00.000Z"
                 *     }
                 */
                "application/json": components["schemas"]["CreateShareToken"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareToken"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listConnectionProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionProvider"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listConnections: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"][];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Shop database",
                 *       "type": "postgres",
                 *       "host": "db.example.com",
                 *       "port": "5432",
                 *       "dbName": "shop",
                 *       "username": "reader",
                 *       "password": "secret",
                 *       "ssl": true,
                 *       "sslMode": "require"
                 *     }
                 */
                "application/json": components["schemas"]["CreateConnection"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                connection_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                connection_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Shop database (replica)",
                 *       "host": "replica.example.com",
                 *       "password": "********"
                 *     }
                 */
                "application/json": components["schemas"]["UpdateConnection"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteConnection: {
        parameters: {
            query?: {
                removeDatasets?: "true" | "false" | "1" | "0";
            };
            header?: never;
            path: {
                team_id: number;
                connection_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Removed"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    uploadConnectionFiles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                connection_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    testConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                connection_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    testUnsavedConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                /** @description The connection type (`postgres`, `api`…); a `type` in the body wins */
                connection_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Shop database",
                 *       "type": "postgres",
                 *       "host": "db.example.com",
                 *       "port": "5432",
                 *       "dbName": "shop",
                 *       "username": "reader",
                 *       "password": "secret"
                 *     }
                 */
                "application/json": components["schemas"]["TestConnection"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    testUnsavedConnectionWithFiles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                /** @description The connection type (`postgres`, `api`…); a `type` in the body wins */
                connection_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getConnectionSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                team_id: number;
                connection_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        schema: unknown;
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    exportChart: {
        parameters: {
            query: {
                /** @description csv (UTF-8 with BOM) or xlsx */
                format: "csv" | "xlsx";
            };
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (text/csv or an XLSX workbook) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv; charset=utf-8": string;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                };
            };
            /** @description Every non-2xx answer */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv; charset=utf-8": components["schemas"]["Error"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv; charset=utf-8": components["schemas"]["Error"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv; charset=utf-8": components["schemas"]["Error"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv; charset=utf-8": components["schemas"]["Error"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv; charset=utf-8": components["schemas"]["Error"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv; charset=utf-8": components["schemas"]["Error"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv; charset=utf-8": components["schemas"]["Error"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv; charset=utf-8": components["schemas"]["Error"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["Error"];
                };
            };
        };
    };
    exportDataset: {
        parameters: {
            query: {
                /** @description csv (UTF-8 with BOM) or xlsx */
                format: "csv" | "xlsx";
                /** @description JSON object of variable values */
                variables?: string;
            };
            header?: never;
            path: {
                team_id: number;
                dataset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (text/csv or an XLSX workbook) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    snapshotDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SnapshotRequest"];
            };
        };
        responses: {
            /** @description The PNG or PDF (`x-plotline-pages` says how many PDF pages), or with `Accept: application/json` a signed link to it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "application/pdf": string;
                    "application/json": components["schemas"]["SnapshotLink"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    chartImage: {
        parameters: {
            query?: {
                /** @description png or svg (default png) */
                format?: "png" | "svg";
                /** @description The report page theme to draw with (default light) */
                theme?: "light" | "dark";
                /** @description Pixels (default 800) */
                width?: number;
                /** @description Pixels (default 450) */
                height?: number;
            };
            header?: never;
            path: {
                project_id: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PNG or SVG */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/svg+xml": string;
                };
            };
            /** @description Every non-2xx answer */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                };
            };
            /** @description Every non-2xx answer */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": components["schemas"]["Error"];
                    "image/svg+xml": components["schemas"]["Error"];
                };
            };
        };
    };
}
