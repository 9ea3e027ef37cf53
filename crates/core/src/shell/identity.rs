//! Who the shell's process is: its user, group and supplementary groups, as the container
//! runtime set them from the image's `USER` and the pod's security context, and what busybox's
//! `id` and `whoami` print for them (names from a busybox image's /etc/passwd and /etc/group).

/// A process's credentials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub uid: i64,
    pub gid: i64,
    /// Supplementary groups, sorted (the kernel sorts what `setgroups` gets).
    pub groups: Vec<i64>,
}

impl Default for Identity {
    /// busybox's root: a member of `wheel` too.
    fn default() -> Identity {
        Identity { uid: 0, gid: 0, groups: vec![0, 10] }
    }
}

/// busybox's /etc/passwd.
const USERS: &[(i64, &str)] = &[
    (0, "root"),
    (1, "daemon"),
    (2, "bin"),
    (3, "sys"),
    (4, "sync"),
    (8, "mail"),
    (33, "www-data"),
    (37, "operator"),
    (65534, "nobody"),
];

/// busybox's /etc/group.
const GROUPS: &[(i64, &str)] = &[
    (0, "root"),
    (1, "daemon"),
    (2, "bin"),
    (3, "sys"),
    (4, "adm"),
    (5, "tty"),
    (6, "disk"),
    (7, "lp"),
    (8, "mail"),
    (9, "kmem"),
    (10, "wheel"),
    (11, "cdrom"),
    (18, "dialout"),
    (19, "floppy"),
    (28, "video"),
    (29, "audio"),
    (32, "tape"),
    (33, "www-data"),
    (37, "operator"),
    (43, "utmp"),
    (46, "plugdev"),
    (50, "staff"),
    (54, "lock"),
    (82, "netdev"),
    (100, "users"),
    (65534, "nogroup"),
];

fn name_in(table: &[(i64, &'static str)], id: i64) -> Option<&'static str> {
    table.iter().find(|(i, _)| *i == id).map(|(_, name)| *name)
}

/// `1000` or `0(root)`.
fn labelled(table: &[(i64, &'static str)], id: i64) -> String {
    match name_in(table, id) {
        Some(name) => format!("{id}({name})"),
        None => id.to_string(),
    }
}

impl Identity {
    /// The user's name, if the image's /etc/passwd has one.
    pub fn user_name(&self) -> Option<&'static str> {
        name_in(USERS, self.uid)
    }

    /// `id`: `uid=1000 gid=3000 groups=2000,3000,4000`.
    pub fn id_line(&self) -> String {
        let groups: Vec<String> = self.groups.iter().map(|g| labelled(GROUPS, *g)).collect();
        let mut line = format!("uid={} gid={}", labelled(USERS, self.uid), labelled(GROUPS, self.gid));
        if !groups.is_empty() {
            line.push_str(&format!(" groups={}", groups.join(",")));
        }
        line
    }

    /// `id -u`, `id -g`, `id -G`, each with `-n` for names: the text, and the ids that have
    /// no name (busybox prints their number, says `unknown ID`, and exits 1).
    pub fn id_part(&self, part: char, names: bool) -> (String, Vec<i64>) {
        let (table, ids) = match part {
            'u' => (USERS, vec![self.uid]),
            'g' => (GROUPS, vec![self.gid]),
            _ => (GROUPS, self.groups.clone()),
        };
        let mut unknown = Vec::new();
        let words: Vec<String> = ids
            .iter()
            .map(|id| match name_in(table, *id) {
                Some(name) if names => name.to_string(),
                None if names => {
                    unknown.push(*id);
                    id.to_string()
                }
                _ => id.to_string(),
            })
            .collect();
        (words.join(" "), unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_print_with_the_names_busybox_knows() {
        assert_eq!(Identity::default().id_line(), "uid=0(root) gid=0(root) groups=0(root),10(wheel)");
        let user = Identity { uid: 1000, gid: 3000, groups: vec![2000, 3000, 4000] };
        assert_eq!(user.id_line(), "uid=1000 gid=3000 groups=2000,3000,4000");
        assert_eq!(user.id_part('u', false), ("1000".to_string(), vec![]));
        assert_eq!(user.id_part('u', true), ("1000".to_string(), vec![1000]));
        assert_eq!(Identity::default().id_part('G', true), ("root wheel".to_string(), vec![]));
        let nobody = Identity { uid: 65534, gid: 0, groups: vec![0] };
        assert_eq!(nobody.id_line(), "uid=65534(nobody) gid=0(root) groups=0(root)");
    }
}
