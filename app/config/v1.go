package config

// fileV1 is version 1 of the file, as the first releases wrote it.
type fileV1 struct {
	Version  int         `json:"version,omitempty"`
	DataDir  string      `json:"data_dir,omitempty"`
	Accounts []accountV1 `json:"accounts"`
	Gateway  Gateway     `json:"gateway,omitzero"`
	Facts    Facts       `json:"facts,omitzero"`
}

type accountV1 struct {
	Name          string   `json:"name"`
	Server        string   `json:"server"`
	Security      string   `json:"security,omitempty"`
	AllowInsecure bool     `json:"allow_insecure,omitempty"`
	Username      string   `json:"username"`
	PasswordFile  string   `json:"password_file,omitempty"`
	PasswordEnv   string   `json:"password_env,omitempty"`
	Keyring       bool     `json:"keyring,omitempty"`
	Folders       []string `json:"folders,omitempty"`
	Exclude       []string `json:"exclude,omitempty"`
	TrashAndJunk  bool     `json:"include_trash_and_junk,omitempty"`
	SMTPServer    string   `json:"smtp_server,omitempty"`
	SMTPSecurity  string   `json:"smtp_security,omitempty"`
	From          string   `json:"from,omitempty"`
}

// migrate is version 2 of v: each account's password source and SMTP
// settings grouped; the relay left at its default.
func (v fileV1) migrate() File {
	f := File{Version: 2, DataDir: v.DataDir, Gateway: v.Gateway, Facts: v.Facts}
	for _, a := range v.Accounts {
		f.Accounts = append(f.Accounts, Account{
			Name: a.Name, Server: a.Server, Security: a.Security, AllowInsecure: a.AllowInsecure,
			Username: a.Username,
			Password: Password{File: a.PasswordFile, Env: a.PasswordEnv, Keyring: a.Keyring},
			Folders:  a.Folders, Exclude: a.Exclude, TrashAndJunk: a.TrashAndJunk,
			SMTP: SMTP{Server: a.SMTPServer, Security: a.SMTPSecurity, From: a.From},
		})
	}
	return f
}
